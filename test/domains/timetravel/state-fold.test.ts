// The time-travel reducer, driven directly: steps with recorded answers in, the state after each step out.
import { describe, expect, it } from "vitest";
import { applyStep, emptyState, type RecordedStep, type StepEntry } from "../../../src/domains/timetravel/state-fold.js";
import { diffStates, materialize, type ViewContext } from "../../../src/domains/timetravel/state-view.js";

const H = (c: string) => `sha256:${c.repeat(64)}`;

function entry(sequence: number, tool_name: string, over: Partial<StepEntry> = {}): StepEntry {
  return { sequence, ts: `2026-12-01T10:00:${String(sequence).padStart(2, "0")}.000Z`, tool_name, feature_id: null, mutating: true, operation_id: `op-${sequence}-xxxxxx`, idempotency_status: "new", result: "ok", error_code: null, ...over };
}
const ok = (data: unknown) => ({ envelope: { ok: true as const, data } });
const lease = (over: object = {}) => ({ instance_id: "default", run_id: "run:x", owner: "alice", acquired_at: "2026-12-01T10:00:00.000Z", heartbeat_at: "2026-12-01T10:00:00.000Z", lease_expires_at: "2026-12-01T10:01:00.000Z", ttl_seconds: 60, released_at: null, sessions: {}, ...over });
const feature = (id: string, status: string, version: number) => ({ feature: { feature_id: id, title: "", status, version, created_at: "x", updated_at: "x", gates: {} } });

function ctx(ts: string, over: Partial<ViewContext> = {}): ViewContext {
  return { ts, chains: {}, resets: {}, claimedAfter: {}, git: { unknown: "no git here" }, ...over };
}

/** Fold the steps and materialize after each, at that step's time. */
function fold(steps: RecordedStep[], view: (ts: string) => ViewContext = (ts) => ctx(ts)) {
  const state = emptyState();
  return steps.map((s) => {
    const effect = applyStep(state, s);
    return { effect, state: materialize(structuredClone(state), view(s.entry.ts)) };
  });
}

describe("state fold", () => {
  it("features, lease, sessions and evidence follow the recorded answers step by step", () => {
    const steps: RecordedStep[] = [
      { entry: entry(0, "run.start"), answer: ok({ lease: lease(), outcome: "acquired", previous_run_id: null }) },
      { entry: entry(1, "feature.init", { feature_id: "login" }), answer: ok(feature("login", "active", 1)) },
      { entry: entry(2, "session.assign", { feature_id: "login" }), answer: ok({ lease: lease({ sessions: { login: { builder: "s-1" } } }), feature_id: "login", role: "builder", session_id: "s-1" }) },
      { entry: entry(3, "gates.run", { feature_id: "login" }), answer: ok({ feature_id: "login", mode: "fast", is_latest: true, chain: { sequence: 0, chain_hash: H("a") } }) },
      { entry: entry(4, "feature.get", { feature_id: "login", mutating: false, operation_id: null, idempotency_status: "none" }), answer: null },
      { entry: entry(5, "feature.set_status", { feature_id: "login", result: "error", error_code: "version_conflict" }), answer: { envelope: { ok: false, error: { code: "version_conflict" } } } },
      { entry: entry(6, "feature.init", { feature_id: "login", idempotency_status: "replay", operation_id: "op-1-xxxxxx" }), answer: null },
      { entry: entry(7, "gates.run", { feature_id: "login", result: "error", error_code: "gate_failed" }), answer: { envelope: { ok: false, error: { code: "gate_failed", details: { feature_id: "login", mode: "fast", is_latest: true, chain: { sequence: 1, chain_hash: H("b") } } } } } },
      { entry: entry(8, "feature.set_status", { feature_id: "login", ts: "2026-12-01T10:02:00.000Z" }), answer: ok({ ...feature("login", "blocked", 4), previous_status: "active" }) },
      { entry: entry(9, "run.stop"), answer: ok({ lease: lease({ released_at: "2026-12-01T10:02:01.000Z", lease_expires_at: "1970-01-01T00:00:00.000Z", sessions: { login: { builder: "s-1" } } }) }) },
    ];
    const after = fold(steps);
    // Written from the script above: what each step must have left.
    expect(after[0]!.state.lease).toMatchObject({ owner: "alice", expired: false, released: false, since_sequence: 0 });
    expect(after[0]!.state.features).toEqual({});
    expect(after[1]!.state.features.login).toEqual({ status: "active", version: 1, since_sequence: 1 });
    expect(after[2]!.state.sessions).toEqual({ login: { builder: "s-1" } });
    expect(after[3]!.state.features.login).toEqual({ status: "active", version: 2, since_sequence: 3 });
    expect(after[3]!.state.evidence.login).toEqual({ chain_length: 1, head_hash: H("a"), source: "ledger", since_sequence: 3 });
    expect(after[4]!.effect).toBe("a read: changed nothing");
    expect(after[5]!.effect).toBe("refused (version_conflict): changed nothing");
    expect(after[5]!.state).toEqual(after[4]!.state);
    expect(after[6]!.effect).toMatch(/^replayed the answer recorded for op-1-xxxxxx: changed nothing$/);
    expect(after[7]!.state.features.login!.version).toBe(3);
    expect(after[7]!.state.evidence.login).toMatchObject({ chain_length: 2, head_hash: H("b") });
    // At 10:02 the lease (until 10:01) is past its expiry without a heartbeat: expired at this step.
    expect(after[8]!.state.lease).toMatchObject({ expired: true, released: false });
    expect(after[8]!.state.features.login).toEqual({ status: "blocked", version: 4, since_sequence: 8 });
    expect(after[9]!.state.lease).toMatchObject({ released: true, expired: false });
  });

  it("an answer the ledger no longer holds makes what that tool writes unknown until a later answer tells it", () => {
    const pruned = { unknown: "the ledger no longer holds the answer of operation op-1" };
    const after = fold([
      { entry: entry(0, "feature.init", { feature_id: "login" }), answer: ok(feature("login", "active", 1)) },
      { entry: entry(1, "feature.set_status", { feature_id: "login" }), answer: pruned },
      { entry: entry(2, "gates.run", { feature_id: "login" }), answer: ok({ feature_id: "login", mode: "fast", is_latest: true, chain: { sequence: 0, chain_hash: H("a") } }) },
      { entry: entry(3, "run.heartbeat"), answer: pruned },
      { entry: entry(4, "feature.set_status", { feature_id: "login" }), answer: ok({ ...feature("login", "merged", 5), previous_status: "active" }) },
    ]);
    expect(after[1]!.state.features.login).toEqual({ status: pruned, version: pruned, since_sequence: 1 });
    expect(after[1]!.effect).toBe(`unknown: ${pruned.unknown}`);
    // A gate bumps a version nobody knows: still unknown (never a guess), while its evidence head is known.
    expect(after[2]!.state.features.login!.version).toEqual(pruned);
    expect(after[2]!.state.evidence.login).toMatchObject({ chain_length: 1 });
    expect(after[3]!.state.lease).toEqual(pruned);
    expect(after[3]!.state.sessions).toEqual(pruned);
    expect(after[4]!.state.features.login).toEqual({ status: "merged", version: 5, since_sequence: 4 });
  });

  it("an interrupted call and a checkpoint call without its answer are unknown; an unrelated error is not", () => {
    const after = fold(
      [
        { entry: entry(0, "checkpoint.update"), answer: ok({ skill: "build", checkpoint: { status: "in_progress", step: "s1", next_actions: ["write tests"], updated_at: "2026-12-01T10:00:00.000Z" } }) },
        { entry: entry(1, "feature.set_status", { feature_id: "login", result: "error", error_code: "operation_interrupted" }), answer: { unknown: "left only an intent" } },
        { entry: entry(2, "checkpoint.done"), answer: { unknown: "pruned" } },
      ],
      (ts) => ctx(ts, { git: { commit: "c0ffee", skills: { ship: { status: "complete", step: "done", next_action: null, updated_at: "2026-11-30T00:00:00.000Z", source: "git:c0ffee" } } } }),
    );
    expect(after[0]!.state.checkpoints).toEqual({
      from_git: "c0ffee",
      skills: {
        build: { status: "in_progress", step: "s1", next_action: "write tests", updated_at: "2026-12-01T10:00:00.000Z", source: "ledger" },
        ship: { status: "complete", step: "done", next_action: null, updated_at: "2026-11-30T00:00:00.000Z", source: "git:c0ffee" },
      },
    });
    expect(after[1]!.state.features.login!.status).toEqual({ unknown: "step 1 (feature.set_status) was interrupted: what it changed is not recorded" });
    expect(after[2]!.state.checkpoints.skills.build).toEqual({ unknown: "pruned" });
    expect(after[2]!.state.checkpoints.skills.ship).toEqual({ unknown: "pruned" });
  });

  it("evidence before this run's first gate is today's chain up to the step's time, never entries this run's later gates wrote", () => {
    const chain = [
      { sequence: 0, chain_hash: H("0"), created_at: "2026-11-30T09:00:00.000Z" },
      { sequence: 1, chain_hash: H("1"), created_at: "2026-12-01T10:00:01.000Z" },
      { sequence: 2, chain_hash: H("2"), created_at: "2026-12-01T10:00:01.000Z" },
    ];
    const state = emptyState();
    applyStep(state, { entry: entry(0, "feature.init", { feature_id: "f" }), answer: ok(feature("f", "active", 1)) });
    const at0 = materialize(state, ctx("2026-12-01T10:00:00.000Z", { chains: { f: chain } }));
    expect(at0.evidence.f).toEqual({ chain_length: 1, head_hash: H("0"), source: "chain", since_sequence: null });
    // Same second as entry 1 and 2, but entry 2 belongs to a later gate of this run.
    const at1 = materialize(state, ctx("2026-12-01T10:00:01.000Z", { chains: { f: chain }, claimedAfter: { f: 2 } }));
    expect(at1.evidence.f).toMatchObject({ chain_length: 2, head_hash: H("1") });
    const reset = materialize(state, ctx("2026-12-01T10:00:00.000Z", { chains: { f: chain }, resets: { f: ["2026-12-01T11:00:00.000Z"] } }));
    expect(reset.evidence.f).toEqual({ unknown: "f's chain was reset after this step; the chain it had then is archived under its evidence/reset-* folder" });
  });

  it("diffs two states field by field, unknown fields included (an absent field is null: an empty chain's null head is no change)", () => {
    const a = emptyState();
    const b = emptyState();
    applyStep(b, { entry: entry(0, "feature.init", { feature_id: "f" }), answer: ok(feature("f", "active", 1)) });
    applyStep(b, { entry: entry(1, "run.start"), answer: { unknown: "pruned" } });
    const changes = diffStates(materialize(a, ctx("2026-12-01T10:00:00.000Z")), materialize(b, ctx("2026-12-01T10:00:00.000Z")));
    expect(changes).toEqual([
      { path: "evidence.f.chain_length", before: null, after: 0 },
      { path: "features.f.status", before: null, after: "active" },
      { path: "features.f.version", before: null, after: 1 },
      { path: "lease", before: { unknown: "no run.start, run.heartbeat, run.stop or session.assign answer in this run up to this step" }, after: { unknown: "pruned" } },
      { path: "sessions", before: { unknown: "no lease answer in this run up to this step tells the sessions" }, after: { unknown: "pruned" } },
    ]);
  });
});
