// DRIFT_011: gates have run while evidence integrity is off, so their evidence is not chained and nothing
// would show an edit. Its own id, so that DRIFT_007 only ever means a chain that does not verify.
import type { DoctorCheck } from "../check-types.js";
import { evidenceIntegrityEnabled } from "../../../config/policy-types.js";
import { featuresWithGateEvidence } from "../../evidence/index.js";

export const check: DoctorCheck = {
  id: "DRIFT_011_EVIDENCE_INTEGRITY_OFF",
  severity: "info",
  title: "gate evidence is chained",
  remediation:
    "set innovation.tamper_evident_evidence and observability.evidence_integrity.enabled to true in agentic/orchestrator/policy.yaml (as `aop init` writes it): gate runs from then on are hash-chained and verified",
  run(ctx) {
    if (evidenceIntegrityEnabled(ctx.policy)) return { findings: [], okMessage: "evidence integrity is on" };
    const features = featuresWithGateEvidence(ctx.layout);
    if (features.length === 0) return { findings: [], okMessage: "no gate has run" };
    const shown = features.slice(0, 5).join(", ") + (features.length > 5 ? `, … (${features.length} in all)` : "");
    return {
      findings: [
        {
          message: `evidence integrity is off in policy (innovation.tamper_evident_evidence / observability.evidence_integrity.enabled) and gates have run for ${shown}: their evidence is not chained, so an edit to it would not be detected`,
          refs: features.slice(0, 20).map((f) => ctx.layout.relative(ctx.layout.evidenceDir(f))),
        },
      ],
    };
  },
};
