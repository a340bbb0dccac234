// DRIFT_007: a feature's evidence integrity chain fails verification (when integrity is enabled; when it is
// off, DRIFT_011 says so). Verification here only reads: the manifest's last_verified_* fields are left
// alone, and a chain is read without its lock unless it does not verify that way (`optimistic`).
import { AopError } from "../../../core/errors.js";
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { evidenceIntegrityEnabled } from "../../../config/policy-types.js";
import { chainedFeatureIds, chainRepairHint, verifyFeatureChain } from "../../evidence/index.js";

export const check: DoctorCheck = {
  id: "DRIFT_007_EVIDENCE_CHAIN_INVALID",
  severity: "warning",
  title: "evidence integrity chains verify",
  remediation:
    "inspect with `aop evidence verify --feature-id <id>`; restore the changed file from git or a trusted copy, or start over with `aop evidence reset-chain --feature-id <id> --reason <why>` (re-running the gate does not repair a chain)",
  async run(ctx) {
    if (!evidenceIntegrityEnabled(ctx.policy)) return { findings: [], okMessage: "evidence integrity is off: no chain to verify" };
    const findings: FindingDraft[] = [];
    for (const featureId of chainedFeatureIds(ctx.layout)) {
      let r;
      try {
        r = await verifyFeatureChain(ctx.layout, ctx.clock, featureId, { recordResult: false, optimistic: true });
      } catch (err) {
        // The chain file itself could not be read (a special file, a link out of the workspace…).
        if (!(err instanceof AopError)) throw err;
        const chain = ctx.layout.relative(ctx.layout.chainFile(featureId));
        findings.push({ message: `feature ${featureId}: chain not verifiable: ${err.code} — ${err.message}`, refs: [chain], remediation: `make ${chain} a regular file inside the workspace again; ${chainRepairHint(featureId, null, null)}` });
        continue;
      }
      if (r.valid) continue;
      const at = r.first_failure_sequence === null ? "" : ` at sequence ${r.first_failure_sequence}`;
      const hashes = r.expected_hash || r.actual_hash ? ` (expected ${r.expected_hash ?? "-"}, found ${r.actual_hash ?? "-"})` : "";
      findings.push({
        message: `feature ${featureId}: chain invalid${at}: ${r.failure_code} — ${r.failure_reason}${hashes}`,
        remediation: chainRepairHint(featureId, r.failure_code, r.artifact_rel_path),
        refs: [ctx.layout.relative(ctx.layout.chainFile(featureId)), ...(r.artifact_rel_path ? [r.artifact_rel_path] : [])],
      });
    }
    return { findings, okMessage: "evidence integrity chains verify" };
  },
};
