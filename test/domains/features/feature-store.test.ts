import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { tempWorkspace } from "../../helpers/tmp.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { fixedClock } from "../../../src/core/clock.js";
import { createFeature, listFeatures, readIndex, readState, recordGateResult, setFeatureStatus } from "../../../src/domains/features/feature-store.js";
import { withStatus, emptyIndex } from "../../../src/domains/features/feature-index.js";

function setup() {
  return { layout: new WorkspaceLayout(tempWorkspace()), clock: fixedClock("2026-01-01T00:00:00.000Z") };
}

describe("feature index (pure)", () => {
  it("moves an id to exactly one list", () => {
    let index = withStatus(emptyIndex("t0"), "a", "active", "t1");
    index = withStatus(index, "b", "active", "t1");
    index = withStatus(index, "a", "blocked", "t2");
    expect(index).toMatchObject({ active: ["b"], blocked: ["a"], merged: [], updated_at: "t2" });
  });
});

describe("feature store", () => {
  it("keeps the upstream orchestrator's index keys (and its version counter) when it writes the index", async () => {
    const { layout, clock } = setup();
    const upstream = {
      version: 3, active: ["hello"], blocked: [], merged: [], locks: { "src/a.ts": "hello" }, lock_leases: {}, blocked_queue: [], collision_records: [], collision_overrides: [], dep_blocked: [],
      updated_at: "2025-12-31T00:00:00.000Z", runtime_sessions: { run_id: "none", owner_instance_id: "none", feature_sessions: {} },
    };
    fs.mkdirSync(layout.featuresDir, { recursive: true });
    fs.writeFileSync(layout.featuresIndex, JSON.stringify(upstream, null, 2));
    await createFeature(layout, clock, { feature_id: "feat_b" });
    const written = JSON.parse(fs.readFileSync(layout.featuresIndex, "utf8"));
    expect(Object.keys(written)).toEqual(Object.keys(upstream));
    expect(written).toEqual({ ...upstream, active: ["hello", "feat_b"], updated_at: "2026-01-01T00:00:00.000Z" });
  });

  it("creates a feature: state.md with front matter and the id in index.active", async () => {
    const { layout, clock } = setup();
    const state = await createFeature(layout, clock, { feature_id: "feat_a", title: "Login" });
    expect(state).toMatchObject({ feature_id: "feat_a", status: "active", version: 1, created_at: "2026-01-01T00:00:00.000Z" });
    expect(readIndex(layout, clock).active).toEqual(["feat_a"]);
    const text = fs.readFileSync(layout.featureState("feat_a"), "utf8");
    expect(text).toMatch(/^---\nfeature_id: feat_a\n/);
    expect(text).toMatch(/\n---\n# Login\n/);
  });

  it("refuses to create a feature twice", async () => {
    const { layout, clock } = setup();
    await createFeature(layout, clock, { feature_id: "f" });
    await expect(createFeature(layout, clock, { feature_id: "f" })).rejects.toMatchObject({ code: "feature_already_exists" });
  });

  it("sets status with optimistic concurrency and keeps the body", async () => {
    const { layout, clock } = setup();
    await createFeature(layout, clock, { feature_id: "f", description: "my notes" });
    clock.advance(1000);
    const { state, previous_status } = await setFeatureStatus(layout, clock, { feature_id: "f", status: "blocked", expected_version: 1 });
    expect(previous_status).toBe("active");
    expect(state).toMatchObject({ status: "blocked", version: 2, updated_at: "2026-01-01T00:00:01.000Z" });
    expect(readIndex(layout, clock)).toMatchObject({ active: [], blocked: ["f"] });
    await expect(setFeatureStatus(layout, clock, { feature_id: "f", status: "merged", expected_version: 1 })).rejects.toMatchObject({ code: "version_conflict" });
    expect((await readState(layout, "f"))!.body).toMatch(/my notes/);
  });

  it("records gate results in the state", async () => {
    const { layout, clock } = setup();
    await createFeature(layout, clock, { feature_id: "f" });
    const state = await recordGateResult(layout, clock, "f", "fast", { result: "pass", evidence: ".aop/features/f/evidence/gate-fast-1.json", at: "x" });
    expect(state.gates.fast).toMatchObject({ result: "pass" });
    expect((await readState(layout, "f"))!.state.gates.fast!.result).toBe("pass");
  });

  it("lists features with their status and notices missing state files", async () => {
    const { layout, clock } = setup();
    await createFeature(layout, clock, { feature_id: "a" });
    await createFeature(layout, clock, { feature_id: "b" });
    fs.rmSync(layout.featureState("b"));
    const list = await listFeatures(layout, clock);
    expect(list.map((f) => [f.feature_id, f.state_missing])).toEqual([["a", false], ["b", true]]);
  });

  it("rejects traversal ids before touching the disk", async () => {
    const { layout, clock } = setup();
    await expect(createFeature(layout, clock, { feature_id: "../../etc" })).rejects.toMatchObject({ code: "invalid_argument" });
    expect(fs.existsSync(layout.featuresIndex)).toBe(false);
  });
});
