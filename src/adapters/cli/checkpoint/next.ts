// checkpoint next: the single highest-priority action across all skills (ranking: docs/checkpoints.md);
// --json is checkpoint.next's result.
import { nextAction, nextView } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../context.js";

export async function run(ctx: CliContext): Promise<number> {
  const { pick, invalid } = await nextAction(ctx);
  if (ctx.json) {
    ctx.printJson(nextView(pick));
    return 0;
  }
  const s = ctx.style;
  if (pick) {
    ctx.out(`${s.bold(pick.skill)} (${pick.status}) — ${pick.why}`);
    ctx.out(`→ ${pick.action}`);
  } else {
    ctx.out("nothing to do: no checkpoint asks for anything");
  }
  if (invalid.length > 0) ctx.err(`note: ${invalid.length} invalid checkpoint${invalid.length === 1 ? "" : "s"} left out (${invalid.join(", ")}): run \`checkpoint validate\``);
  return 0;
}
