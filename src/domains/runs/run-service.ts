// Run lease operations: start (with takeover of a stale lease only when asked), heartbeat, stop, status,
// and mapping sessions to features.
import { AopError } from "../../core/errors.js";
import type { Clock } from "../../core/clock.js";
import { isoUtc } from "../../core/clock.js";
import { nodeCrypto } from "../../core/hash.js";
import { validateId } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readIndex } from "../features/index.js";
import { EPOCH_ISO, expiresInSeconds, leaseState, type LeaseState, type RunLease } from "./lease.js";
import { currentLease, readLeaseFiles } from "./lease-files.js";
import { DEFAULT_INSTANCE, readLease, updateLease } from "./lease-store.js";

export interface StartRunInput {
  run_id?: string;
  owner: string;
  actor_type?: string;
  ttl_seconds: number;
  takeover_stale_run?: boolean;
}

export interface StartRunResult {
  lease: RunLease;
  outcome: "acquired" | "already_held" | "took_over";
  previous_run_id: string | null;
}

function newLease(clock: Clock, input: StartRunInput): RunLease {
  const now = clock.now();
  return {
    instance_id: DEFAULT_INSTANCE,
    run_id: input.run_id ? validateId("run_id", input.run_id) : `run:${nodeCrypto().randomUUID()}`,
    owner: input.owner,
    ...(input.actor_type ? { actor_type: input.actor_type } : {}),
    acquired_at: isoUtc(now),
    heartbeat_at: isoUtc(now),
    lease_expires_at: isoUtc(now + input.ttl_seconds * 1000),
    ttl_seconds: input.ttl_seconds,
    released_at: null,
    sessions: {},
  };
}

function leaseDetails(lease: RunLease, state: LeaseState): Record<string, unknown> {
  return { run_id: lease.run_id, owner: lease.owner, lease_expires_at: lease.lease_expires_at, state };
}

export function startRun(layout: WorkspaceLayout, clock: Clock, input: StartRunInput): Promise<StartRunResult> {
  return updateLease<StartRunResult>(layout, (current) => {
    if (current) {
      const state = leaseState(current, clock.now());
      if (state === "active") {
        if (current.owner === input.owner && (!input.run_id || input.run_id === current.run_id)) {
          return { write: null, result: { lease: current, outcome: "already_held", previous_run_id: null } };
        }
        throw new AopError("run_already_active", `run ${current.run_id} is active (owner ${current.owner}, lease until ${current.lease_expires_at})`, {
          details: leaseDetails(current, state),
          hint: "wait for it to stop or expire, or use the active run",
        });
      }
      if (state === "expired" && input.takeover_stale_run !== true) {
        throw new AopError("run_already_active", `run ${current.run_id} holds an expired lease (owner ${current.owner}, expired ${current.lease_expires_at})`, {
          details: { ...leaseDetails(current, state), requires_takeover: true },
          hint: "pass takeover_stale_run: true (CLI: --takeover) to take it over",
        });
      }
      const lease = newLease(clock, input);
      return { write: lease, result: { lease, outcome: state === "expired" ? "took_over" : "acquired", previous_run_id: current.run_id } };
    }
    const lease = newLease(clock, input);
    return { write: lease, result: { lease, outcome: "acquired", previous_run_id: null } };
  });
}

function requireHeldLease(current: RunLease | null, runId: string, clock: Clock): RunLease {
  if (!current) throw new AopError("run_not_active", "no run lease exists", { details: { run_id: runId }, hint: "start one with `aop run start`" });
  if (current.run_id !== runId) {
    throw new AopError("run_not_active", `run ${runId} does not hold the lease (run ${current.run_id} does)`, { details: { run_id: runId, lease_run_id: current.run_id } });
  }
  if (leaseState(current, clock.now()) === "released") {
    throw new AopError("run_not_active", `run ${runId} was released at ${current.released_at ?? current.lease_expires_at}`, { details: { run_id: runId }, hint: "start a new run" });
  }
  return current;
}

export function heartbeatRun(layout: WorkspaceLayout, clock: Clock, runId: string): Promise<RunLease> {
  return updateLease(layout, (current) => {
    const lease = requireHeldLease(current, runId, clock);
    const now = clock.now();
    const next: RunLease = { ...lease, heartbeat_at: isoUtc(now), lease_expires_at: isoUtc(now + lease.ttl_seconds * 1000) };
    return { write: next, result: next };
  });
}

export function stopRun(layout: WorkspaceLayout, clock: Clock, runId: string): Promise<RunLease> {
  return updateLease(layout, (current) => {
    if (current && current.run_id === runId && leaseState(current, clock.now()) === "released") return { write: null, result: current };
    const lease = requireHeldLease(current, runId, clock);
    const next: RunLease = { ...lease, released_at: isoUtc(clock.now()), lease_expires_at: EPOCH_ISO };
    return { write: next, result: next };
  });
}

export interface RunStatus {
  state: "none" | LeaseState;
  lease: RunLease | null;
  expires_in_seconds: number | null;
  /** Workspace-relative path of the lease file shown (aop's own, or one the upstream orchestrator wrote). */
  lease_file: string | null;
}

/**
 * The workspace's lease, aop's own or the upstream orchestrator's (any `.aop/runtime/<instance>/`):
 * see currentLease for which one when there are several. An unreadable lease of aop's own is an error;
 * an unreadable upstream one is left to the doctor (DRIFT_004).
 */
export function runStatus(layout: WorkspaceLayout, clock: Clock): RunStatus {
  const files = readLeaseFiles(layout);
  if (files.some((f) => f.instance === DEFAULT_INSTANCE && f.problem !== null)) readLease(layout); // throws what is wrong with it
  const current = currentLease(files, clock.now());
  if (!current?.lease) return { state: "none", lease: null, expires_in_seconds: null, lease_file: null };
  const lease = current.lease;
  return { state: leaseState(lease, clock.now()), lease, expires_in_seconds: expiresInSeconds(lease, clock.now()), lease_file: current.ref };
}

export function assignSession(layout: WorkspaceLayout, clock: Clock, input: { feature_id: string; role: string; session_id: string }): Promise<RunLease> {
  const featureId = validateId("feature_id", input.feature_id);
  const sessionId = validateId("session_id", input.session_id);
  const index = readIndex(layout, clock);
  if (!index.active.includes(featureId)) {
    const known = index.blocked.includes(featureId) ? "blocked" : index.merged.includes(featureId) ? "merged" : null;
    if (known === null) throw new AopError("feature_not_found", `feature '${featureId}' does not exist`, { details: { feature_id: featureId } });
    throw new AopError("feature_not_active", `feature '${featureId}' is ${known}, not active`, { details: { feature_id: featureId, status: known }, hint: "set it active first with `aop feature set-status`" });
  }
  return updateLease(layout, (current) => {
    if (!current || leaseState(current, clock.now()) !== "active") {
      throw new AopError("run_not_active", "no active run: sessions are assigned within a run", { hint: "start one with `aop run start`" });
    }
    const next: RunLease = { ...current, sessions: { ...current.sessions, [featureId]: { ...(current.sessions[featureId] ?? {}), [input.role]: sessionId } } };
    return { write: next, result: next };
  });
}
