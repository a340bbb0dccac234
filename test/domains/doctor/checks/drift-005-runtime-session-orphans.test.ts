import { check } from "../../../../src/domains/doctor/checks/drift-005-runtime-session-orphans.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES, featureSessions, upstreamLease } from "../drift-fixtures.js";

const held = { lease_expires_at: "2026-06-01T13:00:00.000Z" };
const OK = "sessions map only active features";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "sessions on an active feature", workspace: (f) => f.index({ active: ["a"] }).lease("default", { ...held, sessions: { a: { builder: "s1" } } }), ok: OK },
    { name: "sessions in a released lease", workspace: (f) => f.index({ merged: ["a"] }).lease("default", { lease_expires_at: "1970-01-01T00:00:00.000Z", sessions: { a: { builder: "s1" } } }), ok: OK },
    // The upstream orchestrator's shapes (docs/compatibility.md).
    { name: "upstream feature_sessions on an active feature", workspace: (f) => f.upstreamIndex({ active: ["hello"] }).upstreamLease("3f26e510b8a2", { feature_sessions: featureSessions("hello") }), ok: OK },
    { name: "upstream feature_sessions in a released lease are history", workspace: (f) => f.upstreamIndex({}).upstreamLease("3f26e510b8a2", { lease_expires_at: "1970-01-01T00:00:00.000Z", feature_sessions: featureSessions("ghost_feature") }), ok: OK },
    { name: 'index.json runtime_sessions holding the "none" placeholder', workspace: (f) => f.upstreamIndex({}), ok: OK },
  ],
  invalid: [
    { name: "a session on a merged feature", workspace: (f) => f.index({ merged: ["a"] }).lease("default", { ...held, sessions: { a: { builder: "s1" } } }), findings: [{ message: /maps sessions \(builder → s1\) to feature a, which is merged/ }] },
    { name: "a session on a feature not in the index", workspace: (f) => f.index({}).lease("default", { ...held, sessions: { ghost: { qa: "s2" } } }), findings: [{ message: /feature ghost, which is not in the index/ }] },
    {
      name: "upstream feature_sessions on a feature not active (held lease)",
      workspace: (f) => f.upstreamIndex({ active: ["hello"], blocked: ["b"] }).upstreamLease("3f26e510b8a2", { feature_sessions: featureSessions("hello", "ghost_feature", "b") }),
      findings: [
        { message: /^run run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a maps sessions \(planner → planner-ghost_feature-1, builder → builder-ghost_feature-1, qa → qa-ghost_feature-1\) to feature ghost_feature, which is not in the index$/ },
        { message: /to feature b, which is blocked$/ },
      ],
    },
    { name: "upstream feature_sessions in an expired (held) lease", workspace: (f) => f.upstreamIndex({}).upstreamLease("3f26e510b8a2", { lease_expires_at: "2026-06-01T11:00:00.000Z", feature_sessions: featureSessions("gone") }), findings: [{ message: /to feature gone, which is not in the index/ }] },
    {
      name: "index.json runtime_sessions.feature_sessions (no lease file) is checked",
      workspace: (f) => f.upstreamIndex({ active: ["hello"] }, upstreamLease({ run_id: "run:legacy", feature_sessions: featureSessions("hello", "old") })),
      findings: [{ message: /^run run:legacy \(runtime_sessions in index\.json\) maps sessions \(planner → planner-old-1, builder → builder-old-1, qa → qa-old-1\) to feature old, which is not in the index$/ }],
    },
    {
      name: "index.json runtime_sessions of the run a lease file holds: the lease file is the truth, reported once",
      workspace: (f) => f.upstreamIndex({}, upstreamLease({ feature_sessions: featureSessions("old", "older") })).upstreamLease("3f26e510b8a2", { feature_sessions: featureSessions("old") }),
      findings: [{ message: /run run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a maps sessions .* to feature old, which is not in the index$/ }],
    },
  ],
});
