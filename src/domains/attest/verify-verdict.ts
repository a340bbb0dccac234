// A chain that does not verify is an error result (docs/replay.md, "Negative verdicts"): the timeline, every
// view and the caller see the verifier's own code (evidence_chain_hash_mismatch, …), and the error's details
// carry the whole verify report. Pure.
import { AopError, isErrorCode } from "../../core/errors.js";
import { chainRepairHint } from "../evidence/index.js";
import type { EvidenceVerifyReport } from "./verify-evidence.js";

/** A valid report as it is; an invalid one as an error with the report's failure code, carrying the report. */
export function verifyVerdict(report: EvidenceVerifyReport, integrityEnabled: boolean): EvidenceVerifyReport {
  if (report.valid) return report;
  const code = isErrorCode(report.failure_code) ? report.failure_code : "evidence_chain_discontinuity";
  const at = report.first_failure_sequence === null ? "" : ` at sequence ${report.first_failure_sequence}`;
  throw new AopError(code, `evidence chain of ${report.feature_id} does not verify${at}: ${report.failure_reason ?? code}`, {
    details: { ...report },
    hint: hintFor(report, integrityEnabled),
  });
}

function hintFor(report: EvidenceVerifyReport, integrityEnabled: boolean): string {
  // No chain was ever written (a deleted chain is known by the manifest that still counts its entries).
  if (report.failure_code === "evidence_chain_missing" && !/manifest records/.test(report.failure_reason ?? "")) {
    return integrityEnabled
      ? "gate runs are chained from now on: run a gate (`aop gates run`) to start the chain"
      : "evidence integrity is off in policy.yaml: set innovation.tamper_evident_evidence and observability.evidence_integrity.enabled to true (see `aop init`'s policy), then run a gate";
  }
  return chainRepairHint(report.feature_id, report.failure_code, report.artifact_rel_path);
}
