import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-004-stale-run-lease.js";
import { DriftFixture, UPSTREAM_NO_LEASE } from "../drift-fixtures.js";

describe(check.id, () => {
  it.each([
    ["no lease", (f: DriftFixture) => f, []],
    ["a fresh lease", (f: DriftFixture) => f.lease("default", { lease_expires_at: "2026-06-01T12:05:00.000Z" }), []],
    ["a lease released by aop (released_at set)", (f: DriftFixture) => f.lease("default", { released_at: "2026-06-01T11:00:00.000Z", lease_expires_at: "1970-01-01T00:00:00.000Z" }), []],
    ["an upstream released lease (expiry at the epoch, run: id, other instance folder)", (f: DriftFixture) => f.lease("orch-7", { run_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", lease_expires_at: "1970-01-01T00:00:00Z" }), []],
    ["an expired held lease", (f: DriftFixture) => f.lease("default", { run_id: "run:old", lease_expires_at: "2026-06-01T10:00:00.000Z" }), [/run run:old \(owner o\) holds a lease that expired 2h ago/]],
    ["an expired upstream lease under another instance folder", (f: DriftFixture) => f.lease("orch-7", { run_id: "run:up", lease_expires_at: "2026-05-31T12:00:00.000Z" }), [/run run:up .* expired 24h ago \(\.aop\/runtime\/orch-7\/run-lease\.json\)/]],
    ["an upstream lease (owner_instance_id, last_heartbeat_at, feature_sessions), held and fresh", (f: DriftFixture) => f.upstreamLease("3f26e510b8a2"), []],
    ["an upstream lease released at the epoch", (f: DriftFixture) => f.upstreamLease("3f26e510b8a2", { lease_expires_at: "1970-01-01T00:00:00.000Z" }), []],
    ["an upstream lease held and expired", (f: DriftFixture) => f.upstreamLease("3f26e510b8a2", { lease_expires_at: "2026-06-01T11:30:00.000Z" }), [/^run run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a \(owner 3f26e510b8a2\) holds a lease that expired 30m ago \(\.aop\/runtime\/3f26e510b8a2\/run-lease\.json\)$/]],
    ["the upstream \"no lease\" placeholder (run_id none, expiry in the past) is not a lease", (f: DriftFixture) => f.write(".aop/runtime/default/run-lease.json", UPSTREAM_NO_LEASE), []],
    ["an unreadable lease", (f: DriftFixture) => f.write(".aop/runtime/default/run-lease.json", "{oops"), [/run-lease\.json is not valid JSON/]],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
  });
});
