import { check } from "../../../../src/domains/doctor/checks/drift-002-gates-schema-invalid.js";
import { GATES_TEMPLATE } from "../../../../src/config/templates.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES } from "../drift-fixtures.js";

const GATES = "agentic/orchestrator/gates.yaml";
const UPSTREAM_GATES = "config/agentic/orchestrator/gates.yaml";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no gates.yaml", workspace: (f) => f, ok: "gates.yaml is valid or absent" },
    { name: "the init template", workspace: (f) => f.write(GATES, GATES_TEMPLATE), ok: "gates.yaml is valid or absent" },
    {
      name: "the upstream orchestrator's gates.yaml beside aop's own is not read",
      workspace: (f) => f.write(UPSTREAM_GATES, "version: 1\nupstream_only_key: {}\n").write(GATES, 'version: 1\nprofiles:\n  default:\n    modes:\n      fast:\n        - name: t\n          cmd: ["true"]\n'),
      ok: "gates.yaml is valid or absent",
    },
  ],
  invalid: [
    { name: "unparseable YAML", workspace: (f) => f.write(GATES, "profiles: {\n"), findings: [{ message: /is not valid YAML/ }] },
    { name: "a shell string instead of argv", workspace: (f) => f.write(GATES, "version: 1\nprofiles:\n  p:\n    modes:\n      m:\n        - name: t\n          cmd: npm test\n"), findings: [{ message: /cmd must be an array/ }] },
    { name: "an unknown dependency", workspace: (f) => f.write(GATES, "version: 1\nprofiles:\n  p:\n    modes:\n      m:\n        - name: t\n          cmd: [x]\n          depends_on: [nope]\n"), findings: [{ message: /names unknown step 'nope'/ }] },
    {
      name: "the upstream orchestrator's config/agentic/orchestrator/gates.yaml is not read: one info finding while aop has none of its own",
      workspace: (f) => f.write(UPSTREAM_GATES, "version: 1\nupstream_only_key: {}\n"),
      findings: [{ severity: "info", message: "config/agentic/orchestrator/gates.yaml is the upstream orchestrator's configuration and is not read by aop; without agentic/orchestrator/gates.yaml aop has no gate profiles to run" }],
    },
  ],
});
