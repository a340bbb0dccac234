import { check } from "../../../../src/domains/doctor/checks/drift-014-config-upstream-keys.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES } from "../drift-fixtures.js";

const OK = "gates.yaml and policy.yaml hold no key the upstream orchestrator refuses";
const GATES = "version: 1\nprofiles:\n  ci:\n    modes:\n      fast:\n        - name: v\n          cmd: [node, --version]\n";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no configuration", workspace: (f) => f, ok: OK },
    { name: "the default profile where upstream reads it", workspace: (f) => f.write("agentic/orchestrator/gates.yaml", GATES).write("agentic/orchestrator/policy.yaml", "version: 1\ngate_selection:\n  default_profile: ci\n"), ok: OK },
    { name: "an unparseable gates.yaml is DRIFT_002's", workspace: (f) => f.write("agentic/orchestrator/gates.yaml", "version: [1\n"), ok: OK },
    { name: "aop-only keys in aop.yaml, where upstream never looks", workspace: (f) => f.write("agentic/orchestrator/policy.yaml", "version: 1\n").write("agentic/orchestrator/aop.yaml", "hooks:\n  claude:\n    stop_reminder: off\n"), ok: OK },
  ],
  invalid: [
    {
      name: "gates.yaml's own default_profile",
      workspace: (f) => f.write("agentic/orchestrator/gates.yaml", `default_profile: ci\n${GATES}`),
      findings: [{ message: /^agentic\/orchestrator\/gates\.yaml sets default_profile \(ci\)/, refs: ["agentic/orchestrator/gates.yaml"], remediation: /aop migrate/ }],
    },
    {
      name: "aop-only policy keys",
      workspace: (f) => f.write("agentic/orchestrator/policy.yaml", "version: 1\nobservability:\n  evidence_integrity:\n    attest: false\nhooks:\n  claude:\n    stop_reminder: off\n"),
      findings: [{ message: "agentic/orchestrator/policy.yaml sets aop-only keys (observability.evidence_integrity.attest, hooks) that the upstream orchestrator's policy schema refuses; aop reads them there until moved to agentic/orchestrator/aop.yaml", remediation: /^run `aop migrate`.*moves them to agentic\/orchestrator\/aop\.yaml/ }],
    },
  ],
});
