// DRIFT_001: the user policy cannot be parsed, or the merged policy fails its schema.
import type { DoctorCheck } from "../check-types.js";
import { upstreamConfigNotice } from "../upstream-config.js";

export const check: DoctorCheck = {
  id: "DRIFT_001_POLICY_SCHEMA_INVALID",
  severity: "critical",
  title: "policy.yaml is valid",
  remediation: "fix agentic/orchestrator/policy.yaml as the message says, then run `aop config check`",
  run(ctx) {
    return {
      findings: [
        ...ctx.policyProblems.map((p) => ({
          message: `${p.file}: ${p.path === "" ? "" : p.path + " "}${p.message}`,
          ...(p.hint ? { remediation: p.hint } : {}),
          refs: ["agentic/orchestrator/policy.yaml"],
        })),
        ...upstreamConfigNotice(ctx, "policy.yaml", ctx.layout.policyFile, "aop runs on its bundled policy defaults"),
      ],
      okMessage: "policy is valid",
    };
  },
};
