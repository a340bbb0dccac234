// The run lease (`.aop/runtime/<instance>/run-lease.json`) and how to judge it at a given time. Pure.
// A released lease keeps its run_id and has lease_expires_at at the Unix epoch: released, not stale.

export const EPOCH_ISO = "1970-01-01T00:00:00.000Z";

export interface RunLease {
  instance_id: string;
  run_id: string;
  owner: string;
  actor_type?: string;
  acquired_at: string;
  heartbeat_at: string;
  lease_expires_at: string;
  ttl_seconds: number;
  released_at: string | null;
  sessions: Record<string, Record<string, string>>;
}

export type LeaseState = "active" | "expired" | "released";

export function isReleased(lease: Pick<RunLease, "released_at" | "lease_expires_at">): boolean {
  if (lease.released_at) return true;
  const expires = Date.parse(lease.lease_expires_at);
  return expires === 0;
}

export function leaseState(lease: Pick<RunLease, "released_at" | "lease_expires_at">, nowMs: number): LeaseState {
  if (isReleased(lease)) return "released";
  const expires = Date.parse(lease.lease_expires_at);
  if (Number.isNaN(expires) || expires <= nowMs) return "expired";
  return "active";
}

export function expiresInSeconds(lease: RunLease, nowMs: number): number | null {
  if (leaseState(lease, nowMs) !== "active") return null;
  return Math.round((Date.parse(lease.lease_expires_at) - nowMs) / 1000);
}

/**
 * The upstream orchestrator's "no lease" placeholder: `run_id` or `owner_instance_id` is the string
 * "none" (its index.json carries one until a run starts). Not a lease at all, so never stale.
 */
export function isNoLeasePlaceholder(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return v.run_id === "none" || v.owner_instance_id === "none";
}

const SESSION_SUFFIX = "_session_id";

/**
 * Session ids per feature and role. Ours: `sessions: {<feature>: {<role>: id}}`. Upstream:
 * `feature_sessions: {<feature>: {planner_session_id, builder_session_id, qa_session_id, …}}`, whose
 * keys lose their `_session_id` suffix here (`planner`, `builder`, `qa`, `reconciler`).
 */
function sessionsOf(v: Record<string, unknown>): RunLease["sessions"] {
  const ours = isRecord(v.sessions) ? v.sessions : null;
  const upstream = isRecord(v.feature_sessions) ? v.feature_sessions : null;
  const out: RunLease["sessions"] = {};
  for (const [featureId, roles] of Object.entries(ours ?? upstream ?? {})) {
    if (!isRecord(roles)) continue;
    const mapped: Record<string, string> = {};
    for (const [key, session] of Object.entries(roles)) {
      if (typeof session !== "string") continue;
      mapped[!ours && key.endsWith(SESSION_SUFFIX) ? key.slice(0, -SESSION_SUFFIX.length) : key] = session;
    }
    out[featureId] = mapped;
  }
  return out;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

/**
 * Coerce parsed JSON into a lease, or null if it is not one. Reads ours and the upstream
 * orchestrator's (`owner_instance_id`, `started_at`, `last_heartbeat_at`, `feature_sessions`; its TTL
 * is the time from the last heartbeat to the expiry). Check isNoLeasePlaceholder first.
 */
export function parseLease(value: unknown, instanceId: string): RunLease | null {
  if (!isRecord(value)) return null;
  const v = value;
  if (typeof v.run_id !== "string" || typeof v.lease_expires_at !== "string") return null;
  const str = (x: unknown, fallback = "") => (typeof x === "string" ? x : fallback);
  const acquired = str(v.acquired_at, str(v.started_at));
  const heartbeat = str(v.heartbeat_at, str(v.last_heartbeat_at, acquired));
  const lease: RunLease = {
    instance_id: str(v.instance_id, instanceId),
    run_id: v.run_id,
    owner: str(v.owner, str(v.owner_id, str(v.owner_instance_id, "unknown"))),
    ...(typeof v.actor_type === "string" ? { actor_type: v.actor_type } : {}),
    acquired_at: acquired,
    heartbeat_at: heartbeat,
    lease_expires_at: v.lease_expires_at,
    ttl_seconds: 0,
    released_at: typeof v.released_at === "string" ? v.released_at : null,
    sessions: sessionsOf(v),
  };
  if (typeof v.ttl_seconds === "number" && Number.isInteger(v.ttl_seconds)) lease.ttl_seconds = v.ttl_seconds;
  else if (!isReleased(lease)) {
    const ttl = Math.round((Date.parse(lease.lease_expires_at) - Date.parse(heartbeat)) / 1000);
    if (Number.isInteger(ttl) && ttl > 0) lease.ttl_seconds = ttl;
  }
  return lease;
}
