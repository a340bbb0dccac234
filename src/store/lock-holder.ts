// Who holds a lock and whether that holder may be taken over (docs/foundation.md, "Locks"): a holder on
// this host that is still running is never reclaimed, whatever its age; a dead one is at once; a holder
// on another host (or an unreadable record) is judged by how long ago the lock was last refreshed.
import fs from "node:fs";
import os from "node:os";
import { READ_LIMITS } from "./read-limits.js";
import { readBytesBounded } from "./read-text-bounded.js";

export interface LockHolder {
  pid: number;
  hostname: string;
  acquired_at: string;
  /** Random per acquisition: tells this holding apart from any earlier or later one. */
  token?: string;
}

export const HOSTNAME = os.hostname();

// A lock record is written right after its exclusive create; one still unreadable this long after is a
// crash between the two (or not ours), even for locks never reclaimed by age.
const UNREADABLE_HOLDER_MS = 5_000;
// Process start times from /proc are only second-precise (boot time is whole seconds): a pid counts as
// reused only when its process started clearly after the lock was taken.
const START_TIME_MARGIN_MS = 5_000;

export function holderRecord(token: string, acquiredAt: string): string {
  return JSON.stringify({ pid: process.pid, hostname: HOSTNAME, acquired_at: acquiredAt, token });
}

export interface HolderInfo {
  holder: LockHolder | null;
  /** The record as read: a reclaimer removes the lock only if it still holds exactly this. */
  raw: string;
  /** Time since the lock was created or last refreshed. */
  ageMs: number;
}

function ageOrFresh(lockPath: string): number {
  try {
    return Date.now() - fs.lstatSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}

/** The lock's holder, or null when the lock is gone (released between our attempt and this read). */
export function readHolder(lockPath: string): HolderInfo | null {
  const read = readBytesBounded(lockPath, READ_LIMITS.lockHolder, { truncate: true });
  if (read.status === "missing") return null;
  // A read that failed (EMFILE, EIO…) says nothing about the holder: the file's time judges it, and when
  // that cannot be read either it counts as fresh (waited for, never removed on a guess).
  if (read.status === "unreadable") return { holder: null, raw: `(unreadable)`, ageMs: ageOrFresh(lockPath) };
  if (read.status !== "ok") return { holder: null, raw: `(${read.status})`, ageMs: Infinity }; // not a lock file we could have written
  const raw = read.bytes.toString("utf8");
  let holder: LockHolder | null = null;
  try {
    const parsed = JSON.parse(raw) as LockHolder;
    if (typeof parsed.pid === "number" && typeof parsed.hostname === "string") holder = parsed;
  } catch {
    holder = null; // created but not yet written, or garbage: judged by age only
  }
  return { holder, raw, ageMs: Date.now() - read.mtimeMs };
}

/** Whether a process with this pid runs on this host (a pid we may not signal still runs). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

let bootTimeMs: number | null | undefined;

/** When a process started (epoch ms, second-precise), where the system says (Linux /proc); else null. */
function processStartMs(pid: number): number | null {
  try {
    if (bootTimeMs === undefined) {
      const btime = /^btime (\d+)$/m.exec(fs.readFileSync("/proc/stat", "utf8"));
      bootTimeMs = btime ? Number(btime[1]) * 1000 : null;
    }
    if (bootTimeMs === null) return null;
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name (which may hold spaces); starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? bootTimeMs + ticks * 10 : null; // USER_HZ is 100 on Linux
  } catch {
    bootTimeMs ??= null;
    return null;
  }
}

/** Why the current lock may be taken over, or null if it must be waited for. */
export function reclaimReason(info: HolderInfo, staleMs: number): string | null {
  const { holder, ageMs } = info;
  if (holder && holder.hostname === HOSTNAME) {
    if (!processIsAlive(holder.pid)) return `holder pid ${holder.pid} is no longer running`;
    const acquired = Date.parse(holder.acquired_at);
    const started = processStartMs(holder.pid);
    if (started !== null && Number.isFinite(acquired) && started > acquired + START_TIME_MARGIN_MS) return `holder pid ${holder.pid} is no longer running (the pid now belongs to a newer process)`;
    return null; // a live holder on this host: never taken over, however long it works
  }
  if (ageMs > staleMs) return `lock is ${Math.round(ageMs / 1000)}s old without a refresh (bound ${Math.round(staleMs / 1000)}s; holder ${holder ? `pid ${holder.pid} on ${holder.hostname}` : "unknown"})`;
  if (holder === null && ageMs > Math.min(staleMs, UNREADABLE_HOLDER_MS)) return `lock holder is unreadable and ${Math.round(ageMs / 1000)}s old`;
  return null;
}

/** True for reasons that are routine after a crash (a dead holder on this host): reclaimed without a warning. */
export function isDeadHolderReason(reason: string): boolean {
  return reason.startsWith("holder pid");
}
