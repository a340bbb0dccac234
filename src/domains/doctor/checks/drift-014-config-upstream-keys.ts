// DRIFT_014: gates.yaml or policy.yaml hold keys the upstream orchestrator's schemas refuse (DESIGN §21):
// an older gates.yaml's `default_profile` (`aop migrate` moves it to policy.yaml's
// gate_selection.default_profile), or aop-only policy keys (`aop migrate` moves them to aop.yaml, which
// upstream never reads). aop reads both where they are; upstream refuses the file.
import { loadPolicySnapshot } from "../../../config/policy-snapshot.js";
import { readGates } from "../workspace-reads.js";
import type { DoctorCheck, FindingDraft } from "../check-types.js";

export const check: DoctorCheck = {
  id: "DRIFT_014_CONFIG_UPSTREAM_KEYS",
  severity: "info",
  title: "gates.yaml and policy.yaml pass the upstream orchestrator's schemas",
  remediation: "run `aop migrate` (see `aop migrate --dry-run` first): it moves gates.yaml's default_profile to policy.yaml's gate_selection.default_profile and policy.yaml's aop-only keys to agentic/orchestrator/aop.yaml, keeping a backup",
  async run(ctx) {
    const findings: FindingDraft[] = [];
    const profile = (await readGates(ctx)).ownDefaultProfile;
    if (profile !== null) {
      findings.push({
        message: `agentic/orchestrator/gates.yaml sets default_profile (${profile}), which the upstream orchestrator's gates schema refuses; aop reads it while policy.yaml's gate_selection.default_profile is absent`,
        refs: ["agentic/orchestrator/gates.yaml"],
      });
    }
    const keys = (await loadPolicySnapshot(ctx.layout)).aopOnlyKeysInUserFile;
    if (keys.length > 0) {
      findings.push({
        message: `agentic/orchestrator/policy.yaml sets aop-only key${keys.length === 1 ? "" : "s"} (${keys.join(", ")}) that the upstream orchestrator's policy schema refuses; aop reads ${keys.length === 1 ? "it" : "them"} there until moved to agentic/orchestrator/aop.yaml`,
        remediation: "run `aop migrate` (see `aop migrate --dry-run` first): it moves them to agentic/orchestrator/aop.yaml, which the upstream orchestrator never reads, keeping a backup",
        refs: ["agentic/orchestrator/policy.yaml"],
      });
    }
    return { findings, okMessage: "gates.yaml and policy.yaml hold no key the upstream orchestrator refuses" };
  },
};
