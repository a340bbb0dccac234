// checkpoint reset <skill>: the checkpoint.reset tool — move the file into .checkpoints/history/ (never deletes it).
import type { CliContext } from "../program/context.js";

export async function run(ctx: CliContext, opts: Record<string, unknown>, skill: unknown): Promise<number> {
  const { callTool, withOperationId } = await import("../sessions/tool-session.js");
  const data = await callTool(ctx, "checkpoint.reset", withOperationId({ skill: String(skill) }, opts.operationId));
  if (ctx.json) ctx.printJson(data);
  else ctx.out(`moved ${ctx.layout.relative(ctx.layout.checkpointFile(data.skill))} → ${data.moved_to}\nthe next \`checkpoint update ${data.skill} …\` starts a fresh file`);
  return 0;
}
