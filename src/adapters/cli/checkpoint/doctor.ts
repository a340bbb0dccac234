// checkpoint doctor [--fail-on-warnings]: the doctor's checkpoint family in this command's own format;
// exit 1 on errors (and warnings with the flag).
import { runCheckpointDoctor } from "../../../domains/checkpoints/index.js";
import { policyWarning } from "./stale-days.js";
import type { CliContext } from "../program/context.js";
import { EXIT_FAILED } from "../program/exit-codes.js";
import { folderLabel, plural } from "../output/checkpoint-format.js";
import { escapeInline } from "../output/escape.js";

export async function run(ctx: CliContext, opts: Record<string, unknown>): Promise<number> {
  const { scan, findings, policyProblems } = await runCheckpointDoctor(ctx.layout, ctx.clock);
  if (policyProblems > 0) ctx.err(policyWarning(policyProblems));
  const errors = findings.filter((f) => f.level === "error").length;
  const warnings = findings.length - errors;
  const failOnWarnings = opts.failOnWarnings === true;
  const ok = errors === 0 && (!failOnWarnings || warnings === 0);
  if (ctx.json) {
    ctx.printJson({
      ok,
      checked: scan.files.length,
      summary: { errors, warnings },
      findings: findings.map((f) => ({ kind: f.kind, level: f.level, skill: f.skill, file: f.file, message: f.message, refs: f.paths.map((p) => ctx.layout.relative(p)) })),
    });
    return ok ? 0 : EXIT_FAILED;
  }
  const s = ctx.style;
  const where = folderLabel(ctx.layout.relative(scan.dir), scan.dir);
  if (scan.files.length === 0) {
    ctx.out(scan.exists ? `no checkpoints in ${where}` : `no checkpoints folder at ${where}`);
    return 0;
  }
  for (const f of findings) ctx.out(`${f.level === "error" ? s.red("[ERROR]  ") : s.yellow("[WARNING]")} ${escapeInline(f.message)}`);
  if (findings.length === 0) ctx.out(`${s.green("[OK]")}      ${plural(scan.files.length, "checkpoint")}: valid, fresh, nothing drifted`);
  ctx.out(`checkpoint doctor: ${plural(scan.files.length, "file")}, ${plural(errors, "error")}, ${plural(warnings, "warning")}`);
  return ok ? 0 : EXIT_FAILED;
}
