// Builds small workspaces for the DRIFT_* check tests (test/helpers/check-tester.ts runs the checks).
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempWorkspace } from "../../helpers/tmp.js";

export const NOW = "2026-06-01T12:00:00.000Z";

export class DriftFixture {
  readonly layout = new WorkspaceLayout(tempWorkspace());

  write(relative: string, contents: string | object): this {
    const file = path.join(this.layout.root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof contents === "string" ? contents : JSON.stringify(contents));
    return this;
  }

  mkdir(relative: string): this {
    fs.mkdirSync(path.join(this.layout.root, relative), { recursive: true });
    return this;
  }

  index(lists: { active?: string[]; blocked?: string[]; merged?: string[] }): this {
    return this.write(".aop/features/index.json", { version: 1, active: [], blocked: [], merged: [], updated_at: NOW, ...lists });
  }

  state(featureId: string, status = "active"): this {
    return this.write(`.aop/features/${featureId}/state.md`, `---\nfeature_id: ${featureId}\ntitle: ""\nstatus: ${status}\nversion: 1\ncreated_at: ${NOW}\nupdated_at: ${NOW}\ngates: {}\n---\n# ${featureId}\n`);
  }

  lease(instance: string, lease: Record<string, unknown>): this {
    return this.write(`.aop/runtime/${instance}/run-lease.json`, { run_id: "run:1", owner: "o", acquired_at: NOW, heartbeat_at: NOW, ttl_seconds: 60, released_at: null, sessions: {}, ...lease });
  }

  /** A lease in the upstream orchestrator's shape (agentic-orchestrator 0.2.19), under its instance folder. */
  upstreamLease(instance: string, fields: Record<string, unknown> = {}): this {
    return this.write(`.aop/runtime/${instance}/run-lease.json`, upstreamLease({ owner_instance_id: instance, ...fields }));
  }

  /** An upstream index.json: the twelve keys it always writes, `version` its write counter. */
  upstreamIndex(lists: { active?: string[]; blocked?: string[]; merged?: string[] }, runtimeSessions: Record<string, unknown> = UPSTREAM_NO_LEASE): this {
    return this.write(".aop/features/index.json", {
      version: 3, active: [], blocked: [], merged: [], ...lists, locks: {}, lock_leases: {}, blocked_queue: [], collision_records: [], collision_overrides: [], dep_blocked: [], updated_at: NOW, runtime_sessions: runtimeSessions,
    });
  }

  timeline(runId: string, lines: (object | string)[]): this {
    return this.write(`.aop/runtime/replay/${runId}.timeline.jsonl`, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  }
}

/** A case's workspace: a fresh fixture, filled in by the case. */
export type DriftCase = (f: DriftFixture) => DriftFixture;

/** The DRIFT_* suites' clock and workspaces, for testCheck. */
export const DRIFT_CASES = { now: NOW, build: (fill: DriftCase) => fill(new DriftFixture()) };

/** The upstream lease shape (docs/compatibility.md; key order as agentic-orchestrator writes it). Held for 5 minutes from NOW unless overridden. */
export function upstreamLease(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    run_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", orchestrator_session_id: "orchestrator-global-1", reconciler_session_id: "unknown", reconciler_active_feature_id: null, reconciler_queue: [],
    provider: "custom", model: "local-default", provider_config_ref_hash: "140bedbf9c3f6d56a9846d2ba7088798683f4da0c248231336e6a05679e4fdfe", owner_instance_id: "3f26e510b8a2", lease_id: "5829d4eb-1689-40ef-9f7e-4aebb57ba791",
    started_at: NOW, last_heartbeat_at: NOW, lease_expires_at: "2026-06-01T12:05:00.000Z", orchestrator_epoch: 0, feature_sessions: {},
    ...fields,
  };
}

/** What upstream keeps in index.json's runtime_sessions until a run starts: the "none" placeholder. */
export const UPSTREAM_NO_LEASE = upstreamLease({ run_id: "none", orchestrator_session_id: "unknown", provider: "unknown", model: "unknown", owner_instance_id: "none", lease_id: "none", lease_expires_at: "2026-05-01T00:00:00.000Z" });

/** Upstream per-feature sessions: `{planner_session_id, builder_session_id, qa_session_id}`. */
export function featureSessions(...featureIds: string[]): Record<string, Record<string, string>> {
  return Object.fromEntries(featureIds.map((id) => [id, { planner_session_id: `planner-${id}-1`, builder_session_id: `builder-${id}-1`, qa_session_id: `qa-${id}-1` }]));
}

export function entry(sequence: number, extra: object = {}): object {
  return { ts: NOW, sequence, run_id: "r", session_id: null, actor_type: "orchestrator", feature_id: null, tool_name: "feature.get", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1, ...extra };
}
