// checkpoint init: the checkpoint.init tool — create the checkpoints folder and its .gitignore;
// running it again changes nothing.
import type { CliContext } from "../program/context.js";

export async function run(ctx: CliContext, opts: Record<string, unknown>): Promise<number> {
  const { callTool, withOperationId } = await import("../sessions/tool-session.js");
  const data = await callTool(ctx, "checkpoint.init", withOperationId({}, opts.operationId));
  if (ctx.json) {
    ctx.printJson(data);
    return 0;
  }
  for (const p of data.created) ctx.out(`  ${ctx.style.green("created")}  ${p}`);
  for (const p of data.kept) ctx.out(`  ${ctx.style.dim("kept")}     ${p}`);
  if (data.created.length === 0) ctx.out("nothing to do: the checkpoints folder is ready");
  return 0;
}
