import { check } from "../../../../src/domains/doctor/checks/drift-004-stale-run-lease.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES, UPSTREAM_NO_LEASE } from "../drift-fixtures.js";

const OK = "no stale run lease";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no lease", workspace: (f) => f, ok: OK },
    { name: "a fresh lease", workspace: (f) => f.lease("default", { lease_expires_at: "2026-06-01T12:05:00.000Z" }), ok: OK },
    { name: "a lease released by aop (released_at set)", workspace: (f) => f.lease("default", { released_at: "2026-06-01T11:00:00.000Z", lease_expires_at: "1970-01-01T00:00:00.000Z" }), ok: OK },
    { name: "an upstream released lease (expiry at the epoch, run: id, other instance folder)", workspace: (f) => f.lease("orch-7", { run_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", lease_expires_at: "1970-01-01T00:00:00Z" }), ok: OK },
    { name: "an upstream lease (owner_instance_id, last_heartbeat_at, feature_sessions), held and fresh", workspace: (f) => f.upstreamLease("3f26e510b8a2"), ok: OK },
    { name: "an upstream lease released at the epoch", workspace: (f) => f.upstreamLease("3f26e510b8a2", { lease_expires_at: "1970-01-01T00:00:00.000Z" }), ok: OK },
    { name: 'the upstream "no lease" placeholder (run_id none, expiry in the past) is not a lease', workspace: (f) => f.write(".aop/runtime/default/run-lease.json", UPSTREAM_NO_LEASE), ok: OK },
  ],
  invalid: [
    { name: "an expired held lease", workspace: (f) => f.lease("default", { run_id: "run:old", lease_expires_at: "2026-06-01T10:00:00.000Z" }), findings: [{ message: /run run:old \(owner o\) holds a lease that expired 2h ago/ }] },
    { name: "an expired upstream lease under another instance folder", workspace: (f) => f.lease("orch-7", { run_id: "run:up", lease_expires_at: "2026-05-31T12:00:00.000Z" }), findings: [{ message: /run run:up .* expired 24h ago \(\.aop\/runtime\/orch-7\/run-lease\.json\)/ }] },
    {
      name: "an upstream lease held and expired",
      workspace: (f) => f.upstreamLease("3f26e510b8a2", { lease_expires_at: "2026-06-01T11:30:00.000Z" }),
      findings: [{ message: /^run run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a \(owner 3f26e510b8a2\) holds a lease that expired 30m ago \(\.aop\/runtime\/3f26e510b8a2\/run-lease\.json\)$/ }],
    },
    { name: "an unreadable lease", workspace: (f) => f.write(".aop/runtime/default/run-lease.json", "{oops"), findings: [{ message: /run-lease\.json is not valid JSON/ }] },
  ],
});
