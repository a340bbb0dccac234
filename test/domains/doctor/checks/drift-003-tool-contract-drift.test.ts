import { check } from "../../../../src/domains/doctor/checks/drift-003-tool-contract-drift.js";
import { toolsDocText } from "../../../../src/catalog/tools-doc-file.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES } from "../drift-fixtures.js";

const TOOLS_MD = "agentic/orchestrator/tools.md";
const POLICY = "agentic/orchestrator/policy.yaml";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no tools.md", workspace: (f) => f, ok: "tool surface, tools.md and RBAC agree" },
    { name: "an up-to-date tools.md", workspace: (f) => f.write(TOOLS_MD, toolsDocText()), ok: "tool surface, tools.md and RBAC agree" },
  ],
  invalid: [
    { name: "a stale tools.md", workspace: (f) => f.write(TOOLS_MD, "# Tool surface\n\nold\n"), findings: [{ message: /tools\.md is out of date with the tool catalog/ }] },
    { name: "RBAC naming an unknown tool", workspace: (f) => f.write(POLICY, "rbac:\n  qa: [feature.get, ghost.tool]\n"), findings: [{ message: /rbac\.qa\[1\] names unknown tool 'ghost\.tool'/ }] },
    { name: "RBAC granting a role an unsupported tool", workspace: (f) => f.write(POLICY, "rbac:\n  qa: [run.start]\n"), findings: [{ message: /rbac\.qa\[0\] grants run\.start, which role 'qa' cannot call/ }] },
    {
      name: "a tools.md the upstream orchestrator generated is its own list: info, not drift",
      workspace: (f) => f.write(TOOLS_MD, "# AOP MCP Tool Surface\n\nGenerated from `agentic/orchestrator/tools/catalog.json`.\n\n- collisions.scan\n- cost.get\n"),
      findings: [{ severity: "info", message: "agentic/orchestrator/tools.md lists the upstream orchestrator's tools (it rewrites the file on every start), not aop's" }],
    },
  ],
});
