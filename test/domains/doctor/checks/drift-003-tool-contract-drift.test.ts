import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-003-tool-contract-drift.js";
import { toolsDocText } from "../../../../src/catalog/tools-doc-file.js";
import { DriftFixture } from "../drift-fixtures.js";

describe(check.id, () => {
  it.each([
    ["no tools.md", (f: DriftFixture) => f, []],
    ["an up-to-date tools.md", (f: DriftFixture) => f.write("agentic/orchestrator/tools.md", toolsDocText()), []],
    ["a stale tools.md", (f: DriftFixture) => f.write("agentic/orchestrator/tools.md", "# Tool surface\n\nold\n"), [/tools\.md is out of date with the tool catalog/]],
    ["RBAC naming an unknown tool", (f: DriftFixture) => f.write("agentic/orchestrator/policy.yaml", "rbac:\n  qa: [feature.get, ghost.tool]\n"), [/rbac\.qa\[1\] names unknown tool 'ghost\.tool'/]],
    ["RBAC granting a role an unsupported tool", (f: DriftFixture) => f.write("agentic/orchestrator/policy.yaml", "rbac:\n  qa: [run.start]\n"), [/rbac\.qa\[0\] grants run\.start, which role 'qa' cannot call/]],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
    for (const f of findings) expect(f.severity).toBe("warning");
  });

  it("a tools.md the upstream orchestrator generated is its own list: info, not drift", async () => {
    const upstream = "# AOP MCP Tool Surface\n\nGenerated from `agentic/orchestrator/tools/catalog.json`.\n\n- collisions.scan\n- cost.get\n";
    const findings = await new DriftFixture().write("agentic/orchestrator/tools.md", upstream).run(check);
    expect(findings.map((f) => [f.severity, f.message])).toEqual([["info", "agentic/orchestrator/tools.md lists the upstream orchestrator's tools (it rewrites the file on every start), not aop's"]]);
  });
});
