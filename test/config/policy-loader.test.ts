import { describe, expect, it } from "vitest";
import { tempWorkspace, writeFile } from "../helpers/tmp.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { loadPolicy, loadPolicyTolerant, policyDefaults } from "../../src/config/policy-loader.js";
import { POLICY_TEMPLATE } from "../../src/config/templates.js";
import type { AopError } from "../../src/core/errors.js";

function workspaceWithPolicy(yaml: string | null): WorkspaceLayout {
  const root = tempWorkspace();
  if (yaml !== null) writeFile(root, "agentic/orchestrator/policy.yaml", yaml);
  return new WorkspaceLayout(root);
}

describe("policy loading", () => {
  it("uses the bundled defaults when there is no policy.yaml", async () => {
    const result = await loadPolicyTolerant(workspaceWithPolicy(null));
    expect(result.problems).toEqual([]);
    expect(result.userFileExists).toBe(false);
    expect(result.policy).toEqual(policyDefaults());
    expect(result.policy.observability.replay.retention).toEqual({ max_runs: 100, max_entries_per_run: 50000 });
    expect(result.policy.innovation).toEqual({ replay_debugger: true, tamper_evident_evidence: false });
  });

  it("loads the init template without problems", async () => {
    const result = await loadPolicyTolerant(workspaceWithPolicy(POLICY_TEMPLATE));
    expect(result.problems).toEqual([]);
  });

  it("deep-merges the user file: objects merge, arrays replace", async () => {
    const policy = await loadPolicy(workspaceWithPolicy("version: 1\nobservability:\n  replay:\n    write_mode: required\nrbac:\n  builder: [feature.get]\n"));
    expect(policy.observability.replay.write_mode).toBe("required");
    expect(policy.observability.replay.enabled).toBe(true);
    expect(policy.rbac.builder).toEqual(["feature.get"]);
    expect(policy.rbac.orchestrator!.length).toBeGreaterThan(5);
  });

  it("refuses a __proto__ key (it would become the merged policy's prototype) with the path and the reason", async () => {
    for (const [yaml, path] of [["__proto__:\n  polluted: true\n", "__proto__"], ["observability:\n  replay:\n    constructor: {}\n", "observability.replay.constructor"]] as const) {
      const result = await loadPolicyTolerant(workspaceWithPolicy(yaml));
      expect(result.problems).toEqual([{ file: "agentic/orchestrator/policy.yaml", path, message: `the key '${path.split(".").pop()}' is refused (__proto__, constructor and prototype would reach an object's prototype); rename or remove it` }]);
      expect(result.policy).toEqual(policyDefaults());
      expect(Object.getPrototypeOf(result.policy)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("names the file, the JSON path and the problem", async () => {
    const result = await loadPolicyTolerant(workspaceWithPolicy("observability:\n  replay:\n    write_mode: sometimes\n"));
    expect(result.problems).toEqual([
      { file: "agentic/orchestrator/policy.yaml", path: "observability.replay.write_mode", message: "must be best_effort or required (got 'sometimes')" },
    ]);
  });

  it("reports wrong types with what was found", async () => {
    const result = await loadPolicyTolerant(workspaceWithPolicy("locks:\n  lease_ttl_seconds: soon\n"));
    expect(result.problems[0]).toMatchObject({ path: "locks.lease_ttl_seconds", message: "must be an integer (got string 'soon')" });
    // tolerant: the broken section falls back to the default
    expect(result.policy.locks.lease_ttl_seconds).toBe(policyDefaults().locks.lease_ttl_seconds);
  });

  it("reports unknown keys with the allowed ones", async () => {
    const result = await loadPolicyTolerant(workspaceWithPolicy("observability:\n  replay:\n    enabld: true\n"));
    expect(result.problems[0]!.path).toBe("observability.replay.enabld");
    expect(result.problems[0]!.message).toMatch(/is not a known key \(allowed: enabled, write_mode, retention\)/);
  });

  it("reports unparseable YAML with its line and keeps the defaults", async () => {
    const result = await loadPolicyTolerant(workspaceWithPolicy("version: [1\nlocks: {\n"));
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.message).toMatch(/is not valid YAML at line \d+, column \d+/);
    expect(result.policy).toEqual(policyDefaults());
  });

  it("rejects a top level that is not a mapping", async () => {
    const result = await loadPolicyTolerant(workspaceWithPolicy("- a\n- b\n"));
    expect(result.problems[0]!.message).toMatch(/mapping/);
  });

  it("an explicit null replaces a default, and the merged schema then says what is missing", async () => {
    const result = await loadPolicyTolerant(workspaceWithPolicy("locks: null\n"));
    expect(result.problems[0]).toMatchObject({ file: "agentic/orchestrator/policy.yaml (merged over defaults)", path: "locks" });
  });

  it("loadPolicy throws config_invalid with every problem in details", async () => {
    const layout = workspaceWithPolicy("version: 2\nlocks:\n  lease_ttl_seconds: -5\n");
    await expect(loadPolicy(layout)).rejects.toSatisfy((err: unknown) => {
      const e = err as AopError;
      return e.code === "config_invalid" && (e.details.problems as unknown[]).length === 2 && /policy\.yaml/.test(e.message);
    });
  });
});
