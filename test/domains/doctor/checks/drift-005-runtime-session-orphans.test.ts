import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-005-runtime-session-orphans.js";
import { DriftFixture, featureSessions, upstreamLease } from "../drift-fixtures.js";

const held = { lease_expires_at: "2026-06-01T13:00:00.000Z" };

describe(check.id, () => {
  it.each([
    ["sessions on an active feature", (f: DriftFixture) => f.index({ active: ["a"] }).lease("default", { ...held, sessions: { a: { builder: "s1" } } }), []],
    ["sessions in a released lease", (f: DriftFixture) => f.index({ merged: ["a"] }).lease("default", { lease_expires_at: "1970-01-01T00:00:00.000Z", sessions: { a: { builder: "s1" } } }), []],
    ["a session on a merged feature", (f: DriftFixture) => f.index({ merged: ["a"] }).lease("default", { ...held, sessions: { a: { builder: "s1" } } }), [/maps sessions \(builder → s1\) to feature a, which is merged/]],
    ["a session on a feature not in the index", (f: DriftFixture) => f.index({}).lease("default", { ...held, sessions: { ghost: { qa: "s2" } } }), [/feature ghost, which is not in the index/]],
    // The upstream orchestrator's shapes (docs/compatibility.md).
    ["upstream feature_sessions on an active feature", (f: DriftFixture) => f.upstreamIndex({ active: ["hello"] }).upstreamLease("3f26e510b8a2", { feature_sessions: featureSessions("hello") }), []],
    [
      "upstream feature_sessions on a feature not active (held lease)",
      (f: DriftFixture) => f.upstreamIndex({ active: ["hello"], blocked: ["b"] }).upstreamLease("3f26e510b8a2", { feature_sessions: featureSessions("hello", "ghost_feature", "b") }),
      [
        /^run run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a maps sessions \(planner → planner-ghost_feature-1, builder → builder-ghost_feature-1, qa → qa-ghost_feature-1\) to feature ghost_feature, which is not in the index$/,
        /to feature b, which is blocked$/,
      ],
    ],
    ["upstream feature_sessions in an expired (held) lease", (f: DriftFixture) => f.upstreamIndex({}).upstreamLease("3f26e510b8a2", { lease_expires_at: "2026-06-01T11:00:00.000Z", feature_sessions: featureSessions("gone") }), [/to feature gone, which is not in the index/]],
    ["upstream feature_sessions in a released lease are history", (f: DriftFixture) => f.upstreamIndex({}).upstreamLease("3f26e510b8a2", { lease_expires_at: "1970-01-01T00:00:00.000Z", feature_sessions: featureSessions("ghost_feature") }), []],
    [
      "index.json runtime_sessions.feature_sessions (no lease file) is checked",
      (f: DriftFixture) => f.upstreamIndex({ active: ["hello"] }, upstreamLease({ run_id: "run:legacy", feature_sessions: featureSessions("hello", "old") })),
      [/^run run:legacy \(runtime_sessions in index\.json\) maps sessions \(planner → planner-old-1, builder → builder-old-1, qa → qa-old-1\) to feature old, which is not in the index$/],
    ],
    [
      "index.json runtime_sessions of the run a lease file holds: the lease file is the truth, reported once",
      (f: DriftFixture) => f.upstreamIndex({}, upstreamLease({ feature_sessions: featureSessions("old", "older") })).upstreamLease("3f26e510b8a2", { feature_sessions: featureSessions("old") }),
      [/run run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a maps sessions .* to feature old, which is not in the index$/],
    ],
    ["index.json runtime_sessions holding the \"none\" placeholder", (f: DriftFixture) => f.upstreamIndex({}), []],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
  });
});
