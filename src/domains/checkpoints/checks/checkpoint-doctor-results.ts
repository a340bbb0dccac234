// The CKPT_* checks share one diagnosis of the checkpoints folder per doctor run (memoised on the
// context), and each check reports one kind of its findings.
import { diagnoseFolder, type CheckpointDoctorReport } from "../checkpoint-doctor.js";
import type { CheckpointDoctorKind } from "../doctor-rules.js";
import type { CheckResult, DoctorContext } from "../../doctor/index.js";

export function checkpointDoctorReport(ctx: DoctorContext): Promise<CheckpointDoctorReport> {
  return ctx.memo("checkpoint-doctor", () => diagnoseFolder(ctx.layout, ctx.clock, ctx.policy.checkpoints.stale_days));
}

/** The findings of one kind as doctor findings (each carrying its own record for `checkpoint doctor`); `ok` describes a clean result. */
export async function findingsOfKind(ctx: DoctorContext, kind: CheckpointDoctorKind, ok: (checked: number) => string): Promise<CheckResult> {
  const report = await checkpointDoctorReport(ctx);
  const findings = report.findings.filter((f) => f.kind === kind).map((f) => ({ message: f.message, refs: f.paths.map((p) => ctx.layout.relative(p)), subject: f }));
  const checked = report.scan.files.length;
  return findings.length > 0 ? { findings } : { findings, okMessage: checked === 0 ? "no checkpoints to check" : ok(checked) };
}
