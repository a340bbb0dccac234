// checkpoint validate [--strict]: every file's errors, warnings and hints; exit 1 on errors (and warnings
// with --strict; hints never count).
import { scanFolder, validateReport } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../program/context.js";
import { EXIT_FAILED } from "../program/exit-codes.js";
import { folderLabel, plural, problemLine } from "../output/checkpoint-format.js";
import { escapeInline } from "../output/escape.js";

export async function run(ctx: CliContext, opts: Record<string, unknown>): Promise<number> {
  const scan = await scanFolder(ctx, { keepDocuments: false });
  const report = validateReport(scan, opts.strict === true);
  const exit = report.ok ? 0 : EXIT_FAILED;
  if (ctx.json) {
    ctx.printJson(report);
    return exit;
  }
  const where = folderLabel(ctx.layout.relative(scan.dir), scan.dir);
  if (report.files.length === 0) {
    ctx.out(scan.exists ? `no checkpoints in ${where} (nothing to validate)` : `no checkpoints folder at ${where} (nothing to validate)`);
    return 0;
  }
  const s = ctx.style;
  let errors = 0;
  let warnings = 0;
  let hints = 0;
  let invalid = 0;
  const lines: string[] = []; // one write for a thousand files, not a thousand writes
  for (const file of report.files) {
    errors += file.errors.length;
    warnings += file.warnings.length;
    hints += file.hints.length;
    if (file.errors.length > 0) invalid++;
    const mark = file.errors.length > 0 ? s.red("✗") : file.warnings.length > 0 ? s.yellow("!") : s.green("✓");
    lines.push(`${mark} ${escapeInline(file.file)}`); // a file name with a newline stays on its line
    for (const p of file.errors) lines.push(problemLine("error", p, s));
    for (const p of file.warnings) lines.push(problemLine("warning", p, s));
    for (const p of file.hints) lines.push(problemLine("hint", p, s));
  }
  const valid = report.files.length - invalid;
  const verdict = report.ok ? s.green("ok") : s.red(opts.strict === true && invalid === 0 ? "failed (--strict: warnings count)" : "failed");
  lines.push(`${plural(report.files.length, "file")}: ${valid} valid, ${invalid} with errors; ${plural(errors, "error")}, ${plural(warnings, "warning")}${hints > 0 ? `, ${plural(hints, "hint")}` : ""} — ${verdict}`);
  ctx.out(lines.join("\n"));
  return exit;
}
