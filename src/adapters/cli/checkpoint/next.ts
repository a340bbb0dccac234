// checkpoint next: the single highest-priority action across all skills, chosen as the protocol's
// reference CLI chooses it (docs/checkpoints.md); --json is checkpoint.next's result.
import { nextAction, nextView } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../program/context.js";
import { escapeInline } from "../output/escape.js";

export async function run(ctx: CliContext): Promise<number> {
  const { pick, unreadable } = await nextAction(ctx);
  if (ctx.json) {
    ctx.printJson(nextView(pick));
    return 0;
  }
  const s = ctx.style;
  if (pick) {
    const where = [pick.phase, pick.step].filter((x) => x !== null).join("/");
    ctx.out(`${s.bold(escapeInline(pick.skill))}  (${escapeInline(`${pick.status ?? "no status"}${where ? ` — ${where}` : ""}`)})`);
    ctx.out(`Why:    ${escapeInline(pick.why)}`);
    ctx.out(`Action: ${escapeInline(pick.action)}`);
    if (!pick.valid) ctx.err(`note: ${escapeInline(pick.file)} has validation errors: run \`checkpoint validate\``);
  } else {
    ctx.out("no checkpoints: nothing to rank");
  }
  if (unreadable.length > 0) ctx.err(`note: ${unreadable.length} unreadable checkpoint${unreadable.length === 1 ? "" : "s"} not ranked (${escapeInline(unreadable.join(", "))}): run \`checkpoint validate\``);
  return 0;
}
