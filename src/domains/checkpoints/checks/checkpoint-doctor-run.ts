// `checkpoint doctor`: the checkpoint family run by the doctor engine, its outcomes turned back into
// the checkpoint doctor's own findings (kind, level, skill, file), in file order as a person reads them.
import type { Clock } from "../../../core/clock.js";
import type { WorkspaceLayout } from "../../../store/layout.js";
import { doctorContext, runFamilyChecks, type CheckOutcome } from "../../doctor/index.js";
import type { CheckpointScan } from "../checkpoint-scan.js";
import { DOCTOR_KINDS, type CheckpointDoctorFinding } from "../doctor-rules.js";
import { checkpointFamily } from "./checkpoint-family.js";
import { checkpointDoctorReport } from "./checkpoint-doctor-results.js";

/** A checkpoint doctor finding, or a check that failed to run (kind `check_failed`, an error). */
export type CheckpointDoctorLine = CheckpointDoctorFinding | { kind: "check_failed"; level: "error"; skill: null; file: null; message: string; paths: string[] };

export interface CheckpointDoctorRun {
  scan: CheckpointScan;
  findings: CheckpointDoctorLine[];
  /** The policy had problems: its defaults were used where it is invalid. */
  policyProblems: number;
}

function inFileOrder(scan: CheckpointScan, outcomes: readonly CheckOutcome[]): CheckpointDoctorFinding[] {
  const fileIndex = new Map(scan.files.map((f, i) => [f.file, i]));
  const kindIndex = (f: CheckpointDoctorFinding) => DOCTOR_KINDS.indexOf(f.kind);
  const found = outcomes.flatMap((o) => o.drafts.map((d) => d.subject as CheckpointDoctorFinding));
  // Stable: within one file and kind, findings keep the order the rules gave them.
  return found.sort((a, b) => (fileIndex.get(a.file) ?? 0) - (fileIndex.get(b.file) ?? 0) || kindIndex(a) - kindIndex(b));
}

export async function runCheckpointDoctor(layout: WorkspaceLayout, clock: Clock): Promise<CheckpointDoctorRun> {
  const ctx = await doctorContext({ layout, clock });
  const outcomes = await runFamilyChecks(ctx, checkpointFamily.checks);
  const { scan } = await checkpointDoctorReport(ctx);
  const failed: CheckpointDoctorLine[] = outcomes.filter((o) => o.failed).flatMap((o) => o.findings.map((f) => ({ kind: "check_failed" as const, level: "error" as const, skill: null, file: null, message: f.message, paths: [] })));
  return { scan, findings: [...inFileOrder(scan, outcomes), ...failed], policyProblems: ctx.policyProblems.length };
}
