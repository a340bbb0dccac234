import { describe, expect, it } from "vitest";
import { AopError } from "../../src/core/errors.js";
import { policyDefaults } from "../../src/config/policy-loader.js";
import type { CompletedCall } from "../../src/catalog/timeline-hook.js";
import { opId, testRuntime } from "../helpers/runtime.js";

describe("ToolRuntime pipeline — one error code per stage", () => {
  it("unknown tool → unknown_tool with similar names", async () => {
    const { runtime } = testRuntime();
    const r = await runtime.callTool("feature.gett", {});
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "unknown_tool" } });
    expect((r.envelope as unknown as { error: { details: { similar: string[] } } }).error.details.similar).toContain("feature.get");
  });

  it("role not granted → forbidden_tool_for_role", async () => {
    const { runtime } = testRuntime({ identity: { actor: "qa" } });
    const r = await runtime.callTool("run.start", { operation_id: opId() });
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "forbidden_tool_for_role", details: { role: "qa", tool_name: "run.start" } } });
  });

  it("schema violation → invalid_argument with the schema errors in details", async () => {
    const { runtime } = testRuntime();
    const r = await runtime.callTool("feature.set_status", { feature_id: "f", status: "done", extra: 1, operation_id: opId() });
    expect(r.envelope.ok).toBe(false);
    if (r.envelope.ok) return;
    expect(r.envelope.error.code).toBe("invalid_argument");
    expect(r.envelope.error.details.errors).toEqual([
      { path: "extra", message: expect.stringMatching(/is not a known key/) },
      { path: "status", message: "must be active, blocked or merged (got 'done')" },
    ]);
  });

  it("arguments that are not an object → invalid_argument", async () => {
    const { runtime } = testRuntime();
    for (const bad of [null, [], "x", 5]) {
      expect((await runtime.callTool("feature.list", bad)).envelope).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    }
  });

  it("mutating call without operation_id → operation_id_required", async () => {
    const { runtime } = testRuntime();
    const r = await runtime.callTool("feature.init", { feature_id: "f" });
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "operation_id_required" } });
  });

  it("same operation_id, different request → operation_id_reuse_mismatch", async () => {
    const { runtime } = testRuntime();
    const id = opId();
    await runtime.callTool("feature.init", { feature_id: "a", operation_id: id });
    const r = await runtime.callTool("feature.init", { feature_id: "b", operation_id: id });
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "operation_id_reuse_mismatch" } });
    expect(r.idempotency_status).toBe("mismatch");
  });

  it("a handler's AopError comes back as its envelope", async () => {
    const { runtime } = testRuntime();
    const r = await runtime.callTool("feature.get", { feature_id: "missing" });
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "feature_not_found", details: { feature_id: "missing" } } });
  });

  it("an unexpected handler exception becomes internal_error", async () => {
    const { runtime } = testRuntime({ handlerLoader: async () => async () => { throw new TypeError("kaboom"); } });
    const r = await runtime.callTool("feature.list", {});
    expect(r.envelope).toEqual({ ok: false, error: { code: "internal_error", message: "kaboom", details: {} } });
  });

  it("output that violates the output schema → internal_error", async () => {
    const { runtime } = testRuntime({ handlerLoader: async () => async () => ({ features: "not a list" }) });
    const r = await runtime.callTool("feature.list", {});
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "internal_error", message: "feature.list produced output that violates its schema" } });
  });

  it("an oversized argument → payload_too_large", async () => {
    const { runtime } = testRuntime();
    const r = await runtime.callTool("feature.init", { feature_id: "f", description: "x".repeat(5 * 1024 * 1024), operation_id: opId() });
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "payload_too_large" } });
  });

  it("a broken policy → config_invalid for every call", async () => {
    const { runtime, layout } = testRuntime();
    const fs = await import("node:fs");
    fs.mkdirSync(layout.orchestratorDir, { recursive: true });
    fs.writeFileSync(layout.policyFile, "locks: {lease_ttl_seconds: never}\n");
    const r = await runtime.callTool("feature.list", {});
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "config_invalid" } });
  });

  it("a bad actor → invalid_argument naming the roles", async () => {
    const { runtime } = testRuntime({ identity: { actor: "root" } });
    const r = await runtime.callTool("feature.list", {});
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "invalid_argument", message: expect.stringMatching(/actor must be one of/) } });
  });
});

describe("ToolRuntime — timeline hook", () => {
  it("receives every call after the response is final, with identity and idempotency data", async () => {
    const calls: CompletedCall[] = [];
    const { runtime } = testRuntime({ timelineHook: async (c) => void calls.push(c), identity: { run_id: "run-1", session_id: "s-1" } });
    const id = opId();
    await runtime.callTool("feature.init", { feature_id: "f", operation_id: id });
    await runtime.callTool("feature.init", { feature_id: "f", operation_id: id });
    await runtime.callTool("feature.get", { feature_id: "f" });
    await runtime.callTool("nope.tool", {});
    expect(calls.map((c) => [c.tool_name, c.idempotency_status, c.envelope.ok, c.mutating])).toEqual([
      ["feature.init", "new", true, true],
      ["feature.init", "replay", true, true],
      ["feature.get", "none", true, false],
      ["nope.tool", "none", false, false],
    ]);
    expect(calls[0]!.request_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(calls[0]!.request_hash).toBe(calls[1]!.request_hash);
    expect(calls[2]!.request_hash).toBeNull();
    expect(calls[0]).toMatchObject({ feature_id: "f", operation_id: id, identity: { run_id: "run-1", session_id: "s-1", actor_type: "orchestrator" } });
  });

  it("a hook that throws fails the call with replay_timeline_write_failed", async () => {
    const { runtime } = testRuntime({ timelineHook: async () => { throw new AopError("replay_timeline_write_failed", "disk full"); } });
    const r = await runtime.callTool("feature.list", {});
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "replay_timeline_write_failed" } });
  });

  it("uses a narrowed policy passed in", async () => {
    const policy = policyDefaults();
    policy.rbac.orchestrator = ["feature.get"];
    const { runtime } = testRuntime({ policy });
    expect((await runtime.callTool("feature.list", {})).envelope).toMatchObject({ ok: false, error: { code: "forbidden_tool_for_role" } });
  });
});
