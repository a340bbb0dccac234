// checkpoint next: the single highest-priority action across all skills, chosen as the protocol's
// reference CLI chooses it (docs/checkpoints.md); --json is checkpoint.next's result.
import { nextAction, nextView } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../context.js";

export async function run(ctx: CliContext): Promise<number> {
  const { pick, unreadable } = await nextAction(ctx);
  if (ctx.json) {
    ctx.printJson(nextView(pick));
    return 0;
  }
  const s = ctx.style;
  if (pick) {
    const where = [pick.phase, pick.step].filter((x) => x !== null).join("/");
    ctx.out(`${s.bold(pick.skill)}  (${pick.status ?? "no status"}${where ? ` — ${where}` : ""})`);
    ctx.out(`Why:    ${pick.why}`);
    ctx.out(`Action: ${pick.action}`);
    if (!pick.valid) ctx.err(`note: ${pick.file} has validation errors: run \`checkpoint validate\``);
  } else {
    ctx.out("no checkpoints: nothing to rank");
  }
  if (unreadable.length > 0) ctx.err(`note: ${unreadable.length} unreadable checkpoint${unreadable.length === 1 ? "" : "s"} not ranked (${unreadable.join(", ")}): run \`checkpoint validate\``);
  return 0;
}
