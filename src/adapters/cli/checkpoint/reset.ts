// checkpoint reset <skill>: move the file into .checkpoints/history/ (never deletes it).
import { resetCheckpoint } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../context.js";

export async function run(ctx: CliContext, _opts: Record<string, unknown>, skill: unknown): Promise<number> {
  const result = await resetCheckpoint(ctx, String(skill));
  if (ctx.json) ctx.printJson(result);
  else ctx.out(`moved ${ctx.layout.relative(ctx.layout.checkpointFile(result.skill))} → ${result.moved_to}\nthe next \`checkpoint update ${result.skill} …\` starts a fresh file`);
  return 0;
}
