import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolName } from "../../../src/catalog/tool-types.js";
import { pipelineHandler } from "../../../src/app/pipeline-handler.js";
import { handlers } from "../../../src/domains/checkpoints/tools.js";
import { loadCatalog } from "../../../src/catalog/catalog.js";
import { policyDefaults } from "../../../src/config/policy-loader.js";
import { fixedClock } from "../../../src/core/clock.js";
import type { CatalogEntry, ToolContext } from "../../../src/catalog/tool-types.js";
import { validateAgainst } from "../../../src/catalog/load-validator.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { REPO_ROOT } from "../../helpers/paths.js";
import { readJson } from "../../helpers/tmp.js";
import { checkpointPath, checkpointWorkspace, exampleCheckpoint, minimalCheckpoint } from "./fixture.js";

const entries: CatalogEntry[] = loadCatalog().tools.filter((t) => t.name.startsWith("checkpoint."));

function context(root: string, toolName: string): ToolContext {
  return {
    layout: new WorkspaceLayout(root),
    clock: fixedClock("2026-03-01T12:00:00.000Z"),
    policy: policyDefaults(),
    tool_name: toolName,
    call: { run_id: "run-test", session_id: null, actor_type: "builder" },
    operation_id: "op-12345678",
    warn: () => undefined,
  };
}

/** A handler as the pipeline calls it (arguments unchecked here: each test validates or means to break them). */
const handler = (tool: string) => pipelineHandler(handlers[tool as ToolName]!);

/** Validates the arguments against the input schema, calls the handler, validates its data against the output schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked against the output schema; tests read it loosely
async function call(root: string, tool: string, args: Record<string, unknown>): Promise<any> {
  // Mutating tools take their idempotency key as an argument (the pipeline checks it).
  const withKey = entries.find((e) => e.name === tool)?.requires_operation_id ? { ...args, operation_id: "op-tools-test-1" } : args;
  expect(await validateAgainst(`input/${tool}`, withKey), `input of ${tool}`).toEqual([]);
  const data = await handler(tool)(args, context(root, tool));
  expect(await validateAgainst(`output/${tool}`, data), `output of ${tool}`).toEqual([]);
  return data;
}

describe("catalog entries", () => {
  it("every entry has a handler and two schemas that compile; every handler has an entry", async () => {
    expect(entries.map((e) => e.name).sort()).toEqual(Object.keys(handlers).sort());
    for (const entry of entries) {
      for (const ref of [entry.input_schema_ref, entry.output_schema_ref]) {
        expect(fs.existsSync(path.join(REPO_ROOT, ref)), ref).toBe(true);
        await validateAgainst(ref.replace(/^schemas\//, "").replace(/\.json$/, ""), {});
      }
      expect(entry.requires_operation_id).toBe(entry.mutating);
    }
    expect(entries.filter((e) => e.mutating).map((e) => e.name)).toEqual(["checkpoint.update", "checkpoint.done", "checkpoint.reset", "checkpoint.init"]);
  });

  it("input schemas refuse unknown arguments and path-traversal skills", async () => {
    expect(await validateAgainst("input/checkpoint.get", { skill: "a", extra: 1 })).not.toEqual([]);
    expect(await validateAgainst("input/checkpoint.get", { skill: "../x" })).not.toEqual([]);
    expect(await validateAgainst("input/checkpoint.get", { skill: "a/b" })).not.toEqual([]);
  });
});

describe("checkpoint tools", () => {
  it("checkpoint.list and checkpoint.validate", async () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint(), broken: minimalCheckpoint("broken", { status: "nope" }) });
    const list = await call(root, "checkpoint.list", {});
    expect(list).toMatchObject({ dir: ".checkpoints", exists: true });
    expect(list.checkpoints.map((c: { skill: string; valid: boolean }) => [c.skill, c.valid])).toEqual([["architect", true], ["broken", false]]);
    const report = await call(root, "checkpoint.validate", {});
    expect(report.ok).toBe(false);
    expect(report.files[1].errors[0].path).toBe("status");
  });

  it("checkpoint.get of another skill omits skill_state unless the caller names itself as that skill", async () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    const sibling = await call(root, "checkpoint.get", { skill: "architect", as_skill: "deployer" });
    expect(sibling.skill_state_omitted).toBe(true);
    expect(sibling.checkpoint).not.toHaveProperty("skill_state");
    expect(sibling.checkpoint.progress_table).toHaveLength(5);
    const anonymous = await call(root, "checkpoint.get", { skill: "architect" });
    expect(anonymous.checkpoint).not.toHaveProperty("skill_state");
    const self = await call(root, "checkpoint.get", { skill: "architect", as_skill: "architect" });
    expect(self.skill_state_omitted).toBe(false);
    expect(self.checkpoint.skill_state.open_questions).toHaveLength(1);
  });

  it("checkpoint.next", async () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint(), b: minimalCheckpoint("b") });
    expect(await call(root, "checkpoint.next", {})).toMatchObject({ skill: "architect", file: "architect.checkpoint.json", status: "in_progress", rank: 1, why: expect.stringMatching(/^Blocked on your decision: Choose the message queue/), all_stale: false, over_budget: false, valid: true });
    expect(await call(checkpointWorkspace(), "checkpoint.next", {})).toEqual({ skill: null, status: null, why: "no checkpoints", action: null });
  });

  it("checkpoint.update applies a merge patch, and guards skill_state and updated_at", async () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    const data = await call(root, "checkpoint.update", { skill: "architect", patch: { step: "error-model", blockers: null, context_primer: { user_preferences: ["Short ADRs"] } } });
    expect(data).toMatchObject({ skill: "architect", created: false, updated_at: "2026-03-01T12:00:00.000Z" });
    expect(data.checkpoint).not.toHaveProperty("skill_state");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the file was just validated; the test reads it loosely
    const saved = readJson<Record<string, any>>(checkpointPath(root, "architect"));
    expect(saved).not.toHaveProperty("blockers");
    expect(saved.context_primer).toMatchObject({ user_preferences: ["Short ADRs"], key_decisions: expect.any(Array) });
    expect(saved.skill_state).toBeDefined();
    await expect(handler("checkpoint.update")({ skill: "architect", patch: { skill_state: {} }, as_skill: "deployer" }, context(root, "checkpoint.update"))).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(handler("checkpoint.update")({ skill: "architect", patch: { updated_at: "2020-01-01T00:00:00Z" } }, context(root, "checkpoint.update"))).rejects.toMatchObject({ code: "invalid_argument" });
    const own = await call(root, "checkpoint.update", { skill: "architect", patch: { skill_state: { cursor: 1 } }, as_skill: "architect" });
    expect(own.checkpoint.skill_state).toMatchObject({ cursor: 1 });
    await expect(handler("checkpoint.update")({ skill: "architect", patch: { status: "paused" } }, context(root, "checkpoint.update"))).rejects.toMatchObject({ code: "checkpoint_invalid" });
  });

  it("checkpoint.done, with and without verify", async () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: [{ text: "check", done_when: "exit 0" }, { text: "fail", done_when: "exit 1" }, "last"] }) });
    const first = await call(root, "checkpoint.done", { skill: "b", verify: true });
    expect(first).toMatchObject({ done: { action: "check" }, next_action: { text: "fail" }, remaining: 2, status: "in_progress", verify: { exit_code: 0 } });
    await expect(handler("checkpoint.done")({ skill: "b", verify: true }, context(root, "checkpoint.done"))).rejects.toMatchObject({ code: "checkpoint_verify_failed" });
    const second = await call(root, "checkpoint.done", { skill: "b" });
    expect(second).toMatchObject({ done: { action: "fail" }, verify: null });
    const last = await call(root, "checkpoint.done", { skill: "b", status: "complete" });
    expect(last).toMatchObject({ next_action: null, remaining: 0, status: "complete" });
    await expect(handler("checkpoint.done")({ skill: "b" }, context(root, "checkpoint.done"))).rejects.toMatchObject({ code: "checkpoint_queue_empty" });
  });

  it("done_when from a tool call only sees the policy's allow-listed environment", async () => {
    process.env.AOP_TEST_SECRET = "hunter2";
    try {
      const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: [{ text: "env", done_when: 'test -z "$AOP_TEST_SECRET" && test -n "$PATH"' }, "next"] }) });
      expect((await call(root, "checkpoint.done", { skill: "b", verify: true })).verify.exit_code).toBe(0);
    } finally {
      delete process.env.AOP_TEST_SECRET;
    }
  });
});
