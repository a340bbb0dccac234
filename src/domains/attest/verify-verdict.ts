// A chain that does not verify is an error result (docs/replay.md, "Negative verdicts"): the timeline, every
// view and the caller see the verifier's own code (evidence_chain_hash_mismatch, …), and the error's details
// carry the whole verify report. Pure.
import { AopError, isErrorCode } from "../../core/errors.js";
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
  if (report.failure_code === "evidence_chain_missing") {
    return integrityEnabled
      ? "gate runs are chained from now on: run a gate (`aop gates run`) to start the chain"
      : "evidence integrity is off in policy.yaml: set innovation.tamper_evident_evidence and observability.evidence_integrity.enabled to true (see `aop init`'s policy), then run a gate";
  }
  if (report.failure_code === "evidence_chain_hash_mismatch" || report.failure_code === "evidence_chain_artifact_missing") {
    return `restore ${report.artifact_rel_path ?? "the changed file"} from git or a trusted copy; to start over instead, \`aop evidence reset-chain --feature-id ${report.feature_id} --reason <why>\` keeps this chain and records the reset`;
  }
  return `restore the feature's evidence folder from git or a trusted copy; to start over instead, \`aop evidence reset-chain --feature-id ${report.feature_id} --reason <why>\` keeps this chain and records the reset`;
}
