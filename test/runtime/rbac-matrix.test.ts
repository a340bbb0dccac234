import { describe, expect, it } from "vitest";
import fs from "node:fs";
import { loadCatalog } from "../../src/catalog/catalog.js";
import { ROLES, type Role } from "../../src/config/policy-types.js";
import { opId, testRuntime } from "../helpers/runtime.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { tempWorkspace } from "../helpers/tmp.js";

// The intended default access: tool → roles that may call it (policy defaults ∩ catalog).
const EXPECTED: Record<string, Role[]> = {
  "feature.init": ["orchestrator", "planner", "system"],
  "feature.get": ["orchestrator", "planner", "builder", "qa", "system"],
  "feature.list": ["orchestrator", "planner", "builder", "qa", "system"],
  "feature.set_status": ["orchestrator", "planner", "system"],
  "run.start": ["orchestrator", "system"],
  "run.heartbeat": ["orchestrator", "builder", "system"],
  "run.stop": ["orchestrator", "system"],
  "run.status": ["orchestrator", "planner", "builder", "qa", "system"],
  "session.assign": ["orchestrator", "system"],
  "replay.timeline_get": ["orchestrator", "planner", "builder", "qa", "system"],
  "replay.state_at": ["orchestrator", "planner", "builder", "qa", "system"],
  "replay.search": ["orchestrator", "planner", "builder", "qa", "system"],
  "doctor.run": ["orchestrator", "qa", "system"],
  "gates.run": ["orchestrator", "builder", "qa", "system"],
  "evidence.latest": ["orchestrator", "planner", "builder", "qa", "system"],
  "evidence.verify_chain": ["orchestrator", "planner", "qa", "system"],
  "evidence.attest": ["orchestrator", "qa", "system"],
  "evidence.anchor": ["orchestrator", "qa", "system"],
  "evidence.prove": ["orchestrator", "planner", "qa", "system"],
  "evidence.reset_chain": ["orchestrator", "system"],
  "checkpoint.list": ["orchestrator", "planner", "builder", "qa", "system"],
  "checkpoint.get": ["orchestrator", "planner", "builder", "qa", "system"],
  "checkpoint.validate": ["orchestrator", "planner", "builder", "qa", "system"],
  "checkpoint.next": ["orchestrator", "planner", "builder", "qa", "system"],
  "checkpoint.update": ["orchestrator", "planner", "builder", "system"],
  "checkpoint.done": ["orchestrator", "planner", "builder", "system"],
  "checkpoint.reset": ["orchestrator", "planner", "builder", "system"],
  "checkpoint.init": ["orchestrator", "planner", "builder", "system"],
};

describe("RBAC with the default policy", () => {
  it("the matrix covers every catalog tool", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(loadCatalog().tools.map((t) => t.name).sort());
  });

  const cases = Object.entries(EXPECTED).flatMap(([tool, roles]) => ROLES.map((role) => [tool, role, roles.includes(role)] as const));
  it.each(cases)("%s as %s → allowed: %s", async (tool, role, allowed) => {
    const { runtime } = testRuntime({ identity: { actor: role } });
    const entry = loadCatalog().get(tool)!;
    const r = await runtime.callTool(tool, entry.mutating ? { operation_id: opId() } : {});
    const forbidden = !r.envelope.ok && r.envelope.error.code === "forbidden_tool_for_role";
    expect(forbidden).toBe(!allowed);
  });

  it("a policy grant the catalog does not support is still refused (the catalog half of the role check)", async () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    fs.mkdirSync(layout.orchestratorDir, { recursive: true });
    // run.start supports orchestrator and system only; the policy loads (DRIFT_003 and `aop config check` report the grant).
    fs.writeFileSync(layout.policyFile, "rbac:\n  builder: [run.start, run.status]\n");
    const { runtime } = testRuntime({ layout, identity: { actor: "builder" } });
    expect((await runtime.callTool("run.status", {})).envelope.ok).toBe(true);
    const r = await runtime.callTool("run.start", { operation_id: opId() });
    expect(r.envelope).toEqual({
      ok: false,
      error: {
        code: "forbidden_tool_for_role",
        message: "role 'builder' may not call run.start",
        details: { tool_name: "run.start", role: "builder", granted_by_policy: true, supported_by_catalog: false, hint: "the tool supports roles: orchestrator, system" },
      },
    });
    expect(fs.existsSync(layout.runLease())).toBe(false);
  });

  it("a narrowed user policy removes a tool from a role", async () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    fs.mkdirSync(layout.orchestratorDir, { recursive: true });
    fs.writeFileSync(layout.policyFile, "rbac:\n  builder: [feature.get, run.status]\n");
    const { runtime } = testRuntime({ layout, identity: { actor: "builder" } });
    expect((await runtime.callTool("feature.list", {})).envelope).toMatchObject({ ok: false, error: { code: "forbidden_tool_for_role" } });
    expect((await runtime.callTool("run.status", {})).envelope.ok).toBe(true);
  });
});
