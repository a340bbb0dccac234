import { check } from "../../../../src/domains/doctor/checks/drift-001-policy-schema-invalid.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES } from "../drift-fixtures.js";

const POLICY = "agentic/orchestrator/policy.yaml";
const UPSTREAM_POLICY = "config/agentic/orchestrator/policy.yaml";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no policy.yaml", workspace: (f) => f, ok: "policy is valid" },
    { name: "a valid policy", workspace: (f) => f.write(POLICY, "version: 1\nlocks:\n  lease_ttl_seconds: 60\n"), ok: "policy is valid" },
    { name: "the upstream orchestrator's policy beside aop's own is not read", workspace: (f) => f.write(UPSTREAM_POLICY, "version: 1\nupstream_only_key: {}\n").write(POLICY, "version: 1\n"), ok: "policy is valid" },
  ],
  invalid: [
    { name: "unparseable YAML", workspace: (f) => f.write(POLICY, "locks: [\n"), findings: [{ message: /is not valid YAML at line/ }] },
    { name: "a wrong type", workspace: (f) => f.write(POLICY, "locks:\n  lease_ttl_seconds: soon\n"), findings: [{ message: /locks\.lease_ttl_seconds must be an integer/ }] },
    { name: "an unknown key", workspace: (f) => f.write(POLICY, "lockz: {}\n"), findings: [{ message: /lockz is not a known key/ }] },
    {
      name: "the upstream orchestrator's config/agentic/orchestrator/policy.yaml is not read: one info finding while aop has none of its own",
      workspace: (f) => f.write(UPSTREAM_POLICY, "version: 1\nupstream_only_key: {}\n"),
      findings: [{ severity: "info", message: "config/agentic/orchestrator/policy.yaml is the upstream orchestrator's configuration and is not read by aop; without agentic/orchestrator/policy.yaml aop runs on its bundled policy defaults" }],
    },
  ],
});
