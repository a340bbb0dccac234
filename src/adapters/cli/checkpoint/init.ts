// checkpoint init: create the checkpoints folder and its .gitignore; running it again changes nothing.
import { initCheckpoints } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../context.js";

export async function run(ctx: CliContext): Promise<number> {
  const result = initCheckpoints(ctx);
  if (ctx.json) {
    ctx.printJson({ dir: ctx.layout.relative(result.dir), created: result.created, kept: result.kept });
    return 0;
  }
  for (const p of result.created) ctx.out(`  ${ctx.style.green("created")}  ${p}`);
  for (const p of result.kept) ctx.out(`  ${ctx.style.dim("kept")}     ${p}`);
  if (result.created.length === 0) ctx.out("nothing to do: the checkpoints folder is ready");
  return 0;
}
