// checkpoint show [skill]: the checkpoint as stored (pretty JSON) with its validation problems; --json
// is checkpoint.get's result as the skill itself sees it (skill_state included), or a list of them.
import { checkpointView, readSkill, scanFolder } from "../../../domains/checkpoints/index.js";
import type { CheckedCheckpoint } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../program/context.js";
import { folderLabel, plural, problemLine } from "../output/checkpoint-format.js";

const payload = (entry: CheckedCheckpoint) => checkpointView(entry, entry.skill);

function printEntry(ctx: CliContext, entry: CheckedCheckpoint): void {
  const s = ctx.style;
  const verdict = entry.errors.length > 0 ? s.red(plural(entry.errors.length, "error")) : entry.warnings.length > 0 ? s.yellow(plural(entry.warnings.length, "warning")) : s.green("valid");
  ctx.out(s.dim(`# ${ctx.layout.relative(entry.path)} — `) + verdict);
  if (entry.document !== undefined) ctx.out(JSON.stringify(entry.document, null, 2));
  for (const p of entry.errors) ctx.out(problemLine("error", p, s));
  for (const p of entry.warnings) ctx.out(problemLine("warning", p, s));
  for (const p of entry.hints) ctx.out(problemLine("hint", p, s));
}

export async function run(ctx: CliContext, _opts: Record<string, unknown>, skill: unknown): Promise<number> {
  if (typeof skill === "string") {
    const entry = await readSkill(ctx, skill);
    if (ctx.json) ctx.printJson(payload(entry));
    else printEntry(ctx, entry);
    return 0;
  }
  const scan = await scanFolder(ctx);
  if (ctx.json) {
    ctx.printJson({ checkpoints: scan.files.map(payload) });
    return 0;
  }
  if (scan.files.length === 0) ctx.out(`no checkpoints in ${folderLabel(ctx.layout.relative(scan.dir), scan.dir)}`);
  scan.files.forEach((entry, i) => {
    if (i > 0) ctx.out("");
    printEntry(ctx, entry);
  });
  return 0;
}
