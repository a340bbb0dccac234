// Reads and writes run leases; updates happen under the lease file's lock with atomic writes.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import type { Clock } from "../../core/clock.js";
import { writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { leaseState, parseLease, type RunLease } from "./lease.js";
import { readTextOrNull } from "../../store/file-hash.js";
import { READ_LIMITS } from "../../store/read-limits.js";

export const DEFAULT_INSTANCE = "default";

export function readLease(layout: WorkspaceLayout, instanceId = DEFAULT_INSTANCE): RunLease | null {
  const file = layout.runLease(instanceId);
  const text = readTextOrNull(file, READ_LIMITS.runLease);
  if (text === null) return null;
  const ref = layout.relative(file);
  const hint = "stop any running agent, then delete the file to reset the lease";
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AopError("file_corrupt", `${ref} is not valid JSON`, { details: { path: ref }, hint });
  }
  const lease = parseLease(parsed, instanceId);
  if (!lease) throw new AopError("file_corrupt", `${ref} is not a run lease (run_id and lease_expires_at required)`, { details: { path: ref }, hint });
  return lease;
}

// Every tool call resolves its run from the lease: reuse the parsed lease while the file is unchanged.
const leaseCache = new Map<string, { mtimeMs: number; size: number; lease: RunLease | null }>();

/** The run id of a lease that is held and not expired, or null (never throws: used for defaults). */
export function activeLeaseRunId(layout: WorkspaceLayout, clock: Clock): string | null {
  const file = layout.runLease(DEFAULT_INSTANCE);
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return null;
  let cached = leaseCache.get(file);
  if (!cached || cached.mtimeMs !== stat.mtimeMs || cached.size !== stat.size) {
    let lease: RunLease | null;
    try {
      lease = readLease(layout);
    } catch {
      lease = null;
    }
    cached = { mtimeMs: stat.mtimeMs, size: stat.size, lease };
    leaseCache.set(file, cached);
  }
  return cached.lease && leaseState(cached.lease, clock.now()) === "active" ? cached.lease.run_id : null;
}

/** Read-modify-write of the lease under its lock. `update` returns the lease to write (or null to write nothing). */
export async function updateLease<T>(layout: WorkspaceLayout, update: (current: RunLease | null) => { write: RunLease | null; result: T }, instanceId = DEFAULT_INSTANCE): Promise<T> {
  const file = layout.runLease(instanceId);
  return withLock(layout.lockFor(file), () => {
    const { write, result } = update(readLease(layout, instanceId));
    if (write) writeJsonAtomic(file, write);
    return result;
  });
}
