import { describe, expect, it } from "vitest";
import fs from "node:fs";
import { EPOCH_ISO, isNoLeasePlaceholder, isReleased, leaseState, parseLease } from "../../../src/domains/runs/lease.js";
import type { WorkspaceLayout } from "../../../src/store/layout.js";
import { UPSTREAM_NO_LEASE, upstreamLease } from "../doctor/drift-fixtures.js";
import { opId, testRuntime } from "../../helpers/runtime.js";
import { readLease } from "../../../src/domains/runs/lease-store.js";

describe("lease judgement (pure)", () => {
  const lease = { released_at: null, lease_expires_at: "2026-01-01T00:10:00.000Z" };
  it("is active before expiry, expired after", () => {
    expect(leaseState(lease, Date.parse("2026-01-01T00:09:59.000Z"))).toBe("active");
    expect(leaseState(lease, Date.parse("2026-01-01T00:10:00.000Z"))).toBe("expired");
  });
  it("treats an expiry at the Unix epoch as released, not stale (upstream convention)", () => {
    const upstream = { released_at: null, lease_expires_at: "1970-01-01T00:00:00.000Z" };
    expect(isReleased(upstream)).toBe(true);
    expect(leaseState(upstream, Date.now())).toBe("released");
  });
  it("parses an upstream lease with a run: id", () => {
    expect(parseLease({ run_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", lease_expires_at: "1970-01-01T00:00:00Z", owner_id: "orch" }, "inst-1")).toMatchObject({ instance_id: "inst-1", owner: "orch" });
    expect(parseLease({ nope: 1 }, "x")).toBeNull();
  });
  it("reads the upstream lease shape: owner_instance_id, started_at, last_heartbeat_at, feature_sessions", () => {
    const upstream = upstreamLease({ feature_sessions: { hello: { planner_session_id: "p1", builder_session_id: "b1", qa_session_id: "q1", reconciler_session_id: "r1" }, odd: { planner_session_id: 7 } } });
    expect(parseLease(upstream, "3f26e510b8a2")).toEqual({
      instance_id: "3f26e510b8a2",
      run_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a",
      owner: "3f26e510b8a2",
      acquired_at: "2026-06-01T12:00:00.000Z",
      heartbeat_at: "2026-06-01T12:00:00.000Z",
      lease_expires_at: "2026-06-01T12:05:00.000Z",
      ttl_seconds: 300,
      released_at: null,
      sessions: { hello: { planner: "p1", builder: "b1", qa: "q1", reconciler: "r1" }, odd: {} },
    });
    expect(leaseState(parseLease(upstreamLease({ lease_expires_at: EPOCH_ISO }), "x")!, Date.parse("2026-06-01T12:00:00.000Z"))).toBe("released");
  });
  it("knows the upstream \"no lease\" placeholder (run_id or owner_instance_id \"none\")", () => {
    expect(isNoLeasePlaceholder(UPSTREAM_NO_LEASE)).toBe(true);
    expect(isNoLeasePlaceholder(upstreamLease({ owner_instance_id: "none" }))).toBe(true);
    expect(isNoLeasePlaceholder(upstreamLease())).toBe(false);
  });
});

describe("run.status reads the upstream orchestrator's lease", () => {
  const write = (layout: WorkspaceLayout, instance: string, lease: object) => {
    fs.mkdirSync(layout.runtimeInstanceDir(instance), { recursive: true });
    fs.writeFileSync(layout.runLease(instance), JSON.stringify(lease, null, 2));
  };

  it("shows a lease under .aop/runtime/<instance>/ with its sessions and file", async () => {
    const { runtime, layout } = testRuntime();
    write(layout, "3f26e510b8a2", upstreamLease({ last_heartbeat_at: "2026-03-01T09:59:00.000Z", lease_expires_at: "2026-03-01T10:04:00.000Z", feature_sessions: { hello: { planner_session_id: "p1", builder_session_id: "b1", qa_session_id: "q1" } } }));
    expect((await runtime.callTool("run.status", {})).envelope).toEqual({
      ok: true,
      data: {
        state: "active",
        expires_in_seconds: 240,
        lease_file: ".aop/runtime/3f26e510b8a2/run-lease.json",
        lease: expect.objectContaining({ run_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", owner: "3f26e510b8a2", ttl_seconds: 300, sessions: { hello: { planner: "p1", builder: "b1", qa: "q1" } } }),
      },
    });
  });

  it("prefers an active lease to a released one, then the newest heartbeat; says none for the placeholder", async () => {
    const { runtime, layout } = testRuntime();
    write(layout, "3f26e510b8a2", UPSTREAM_NO_LEASE);
    expect((await runtime.callTool("run.status", {})).envelope).toEqual({ ok: true, data: { state: "none", lease: null, expires_in_seconds: null, lease_file: null } });
    await runtime.callTool("run.start", { run_id: "run-a", owner: "alice", operation_id: opId() });
    await runtime.callTool("run.stop", { run_id: "run-a", operation_id: opId() });
    write(layout, "3f26e510b8a2", upstreamLease({ lease_expires_at: "2026-03-01T10:05:00.000Z" }));
    expect((await runtime.callTool("run.status", {})).envelope).toMatchObject({ data: { state: "active", lease_file: ".aop/runtime/3f26e510b8a2/run-lease.json" } });
    write(layout, "3f26e510b8a2", upstreamLease({ started_at: "2026-02-01T00:00:00.000Z", last_heartbeat_at: "2026-02-01T00:00:00.000Z", lease_expires_at: EPOCH_ISO }));
    expect((await runtime.callTool("run.status", {})).envelope).toMatchObject({ data: { state: "released", lease: { run_id: "run-a" }, lease_file: ".aop/runtime/default/run-lease.json" } });
  });
});

describe("run lease tools", () => {
  async function start(runtime: ReturnType<typeof testRuntime>["runtime"], args: Record<string, unknown>) {
    return (await runtime.callTool("run.start", { operation_id: opId(), ...args })).envelope;
  }

  it("acquires with the policy TTL and reports it active", async () => {
    const { runtime } = testRuntime();
    const env = await start(runtime, { run_id: "run-a", owner: "alice" });
    expect(env).toMatchObject({ ok: true, data: { outcome: "acquired", lease: { run_id: "run-a", owner: "alice", ttl_seconds: 900, lease_expires_at: "2026-03-01T10:15:00.000Z" } } });
    expect((await runtime.callTool("run.status", {})).envelope).toMatchObject({ ok: true, data: { state: "active", expires_in_seconds: 900 } });
  });

  it("refuses a conflicting acquire while the lease is fresh", async () => {
    const { runtime } = testRuntime();
    await start(runtime, { run_id: "run-a", owner: "alice" });
    expect(await start(runtime, { owner: "bob" })).toMatchObject({ ok: false, error: { code: "run_already_active", details: { run_id: "run-a", owner: "alice" } } });
    expect(await start(runtime, { owner: "alice" })).toMatchObject({ ok: true, data: { outcome: "already_held" } });
  });

  it("after expiry (injected clock) requires an explicit takeover", async () => {
    const { runtime, clock } = testRuntime();
    await start(runtime, { run_id: "run-a", owner: "alice", ttl_seconds: 60 });
    clock.advance(61_000);
    expect((await runtime.callTool("run.status", {})).envelope).toMatchObject({ data: { state: "expired" } });
    expect(await start(runtime, { owner: "bob" })).toMatchObject({ ok: false, error: { code: "run_already_active", details: { requires_takeover: true } } });
    expect(await start(runtime, { owner: "bob", run_id: "run-b", takeover_stale_run: true })).toMatchObject({ ok: true, data: { outcome: "took_over", previous_run_id: "run-a", lease: { run_id: "run-b", owner: "bob" } } });
  });

  it("heartbeat extends; stop releases keeping run_id with expiry at the epoch", async () => {
    const { runtime, clock, layout } = testRuntime();
    await start(runtime, { run_id: "run-a", owner: "alice", ttl_seconds: 60 });
    clock.advance(30_000);
    expect((await runtime.callTool("run.heartbeat", { run_id: "run-a", operation_id: opId() })).envelope).toMatchObject({ ok: true, data: { lease: { lease_expires_at: "2026-03-01T10:01:30.000Z" } } });
    const stopped = await runtime.callTool("run.stop", { run_id: "run-a", operation_id: opId() });
    expect(stopped.envelope).toMatchObject({ ok: true, data: { lease: { run_id: "run-a", released_at: "2026-03-01T10:00:30.000Z", lease_expires_at: "1970-01-01T00:00:00.000Z" } } });
    expect(readLease(layout)!.run_id).toBe("run-a");
    expect((await runtime.callTool("run.status", {})).envelope).toMatchObject({ data: { state: "released" } });
    expect((await runtime.callTool("run.heartbeat", { run_id: "run-a", operation_id: opId() })).envelope).toMatchObject({ ok: false, error: { code: "run_not_active" } });
    expect(await start(runtime, { owner: "bob" })).toMatchObject({ ok: true, data: { outcome: "acquired", previous_run_id: "run-a" } });
  });

  it("heartbeat of a run that does not hold the lease → run_not_active", async () => {
    const { runtime } = testRuntime();
    await start(runtime, { run_id: "run-a", owner: "alice" });
    expect((await runtime.callTool("run.heartbeat", { run_id: "run-z", operation_id: opId() })).envelope).toMatchObject({ ok: false, error: { code: "run_not_active" } });
  });

  it("session.assign needs an active feature and an active run", async () => {
    const { runtime } = testRuntime();
    const assign = () => runtime.callTool("session.assign", { feature_id: "f", role: "builder", session_id: "sess-1", operation_id: opId() });
    expect((await assign()).envelope).toMatchObject({ ok: false, error: { code: "feature_not_found" } });
    await runtime.callTool("feature.init", { feature_id: "f", operation_id: opId() });
    expect((await assign()).envelope).toMatchObject({ ok: false, error: { code: "run_not_active" } });
    await start(runtime, { run_id: "run-a" });
    expect((await assign()).envelope).toMatchObject({ ok: true, data: { lease: { sessions: { f: { builder: "sess-1" } } } } });
    await runtime.callTool("feature.set_status", { feature_id: "f", status: "blocked", operation_id: opId() });
    expect((await assign()).envelope).toMatchObject({ ok: false, error: { code: "feature_not_active" } });
  });

  it("calls resolve their run id from the active lease, else adhoc-<date>", async () => {
    const seen: string[] = [];
    const { runtime } = testRuntime({ timelineHook: async (c) => void seen.push(c.identity.run_id) });
    await runtime.callTool("run.status", {});
    await start(runtime, { run_id: "run-a" });
    await runtime.callTool("run.status", {});
    expect(seen).toEqual(["adhoc-2026-03-01", "adhoc-2026-03-01", "run-a"]);
  });
});
