// A gate that failed is an error result (docs/replay.md, "Negative verdicts"): the timeline, the ledger,
// every view and the caller see `gate_failed`, and the error's details carry the whole run report. Pure.
import { AopError } from "../../core/errors.js";
import { stepOutcome } from "../evidence/index.js";
import type { GateRunReport } from "./gate-service.js";

/** The report of a passing run as it is; a failing run as a `gate_failed` error carrying the report. */
export function gateVerdict(report: GateRunReport): GateRunReport {
  if (report.overall === "pass") return report;
  const failed = report.step_results.filter((s) => stepOutcome(s) === "fail").map((s) => s.name);
  const skipped = report.step_results.filter((s) => s.skipped).length;
  const how = failed.length === 0 ? "no step passed" : `${failed.length === 1 ? "step" : "steps"} ${failed.join(", ")} failed`;
  const firstLog = report.step_results.find((s) => failed.includes(s.name))?.log_path ?? null;
  throw new AopError("gate_failed", `gate ${report.mode} (profile ${report.profile}) for ${report.feature_id} failed: ${how}${skipped ? `, ${skipped} skipped` : ""}; evidence ${report.evidence_path}`, {
    details: { ...report, failed_steps: failed },
    hint: firstLog ? `read the failing step's output: ${firstLog}` : `read the evidence: ${report.evidence_path}`,
  });
}
