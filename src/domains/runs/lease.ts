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

/** Coerce parsed JSON (ours or the upstream orchestrator's) into a lease, or null if it is not one. */
export function parseLease(value: unknown, instanceId: string): RunLease | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.run_id !== "string" || typeof v.lease_expires_at !== "string") return null;
  const str = (x: unknown, fallback = "") => (typeof x === "string" ? x : fallback);
  return {
    instance_id: str(v.instance_id, instanceId),
    run_id: v.run_id,
    owner: str(v.owner, str(v.owner_id, "unknown")),
    ...(typeof v.actor_type === "string" ? { actor_type: v.actor_type } : {}),
    acquired_at: str(v.acquired_at),
    heartbeat_at: str(v.heartbeat_at, str(v.acquired_at)),
    lease_expires_at: v.lease_expires_at,
    ttl_seconds: typeof v.ttl_seconds === "number" ? v.ttl_seconds : 0,
    released_at: typeof v.released_at === "string" ? v.released_at : null,
    sessions: v.sessions && typeof v.sessions === "object" && !Array.isArray(v.sessions) ? (v.sessions as RunLease["sessions"]) : {},
  };
}
