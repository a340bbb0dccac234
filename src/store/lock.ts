// Cross-process lock: an exclusively created file holding {pid, hostname, acquired_at, token}
// (docs/foundation.md, "Locks"). A dead holder on this host is reclaimed at once, a live one never; a
// holder on another host by the age of its last refresh. Release removes only the caller's own lock.
import fs from "node:fs";
import path from "node:path";
import { isoUtc, monotonicMs } from "../core/clock.js";
import { AopError } from "../core/errors.js";
import { ensureDir, ioFailure, unlinkIfPresent } from "./atomic-write.js";
import { assertContained } from "./containment.js";
import { defaultFileMode } from "./layout.js";
import { holderRecord, isDeadHolderReason, readHolder, reclaimReason, type HolderInfo, type LockHolder } from "./lock-holder.js";
import { enterQueue, leaveQueue } from "./lock-queue.js";
import { sameFile } from "./same-file.js";


export interface LockOptions {
  /** Give up (lock_timeout) after waiting this long, in this process's queue and for the file together. */
  timeoutMs?: number;
  /**
   * A holder on another host whose lock was not refreshed for this long is reclaimed with a warning.
   * Holders refresh their lock every third of it, so only a holder that stopped is ever judged stale.
   */
  staleMs?: number;
  /** Receives reclaim warnings; defaults to stderr. */
  warn?: (message: string) => void;
}

const DEFAULT_LOCK_TIMEOUT_MS = 20_000;
const DEFAULT_LOCK_STALE_MS = 10_000;
// The reclaim guard is held for microseconds; one older than this was left by a crash.
const GUARD_STALE_MS = 2_000;

export type ReleaseLock = () => void;

interface Held {
  fd: number;
  refresh: NodeJS.Timeout;
  /** When the lock's time was last set (created or refreshed): `monotonicMs()`, immune to clock steps. */
  refreshedAt: number;
  /** A refresh older than this may have let a reclaimer judge the lock stale: see releaseFile. */
  guardAfterMs: number;
  /** Some refresh came this late (the holder stalled): its release takes the guard. */
  late: boolean;
}

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

/**
 * Create the lock file exclusively and write its holder record. The descriptor stays open while the
 * lock is held: it refreshes the lock's time and proves ownership (same inode) at release. A record that
 * cannot be written (full disk) takes the empty lock file with it at once.
 */
function tryCreate(lockPath: string): number | null {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, "wx", defaultFileMode(lockPath));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return null;
    if (code === "ENOENT") {
      ensureDir(path.dirname(lockPath));
      return tryCreate(lockPath);
    }
    throw ioFailure(err, lockPath);
  }
  try {
    fs.writeSync(fd, holderRecord(holderToken(), isoUtc(Date.now())));
  } catch (err) {
    fs.closeSync(fd);
    unlinkIfPresent(lockPath);
    throw ioFailure(err, lockPath);
  }
  return fd;
}

/**
 * Tells one holding of a lock from another in its record (with pid, host and time). Not a secret (the
 * record is readable by anyone who can see the lock), so no node:crypto, which a short command pays for
 * only if it hashes (docs/performance.md).
 */
function holderToken(): string {
  return Math.floor(Math.random() * 2 ** 48).toString(16).padStart(12, "0") + (tokenCounter++ & 0xffff).toString(16).padStart(4, "0");
}
let tokenCounter = 0;

/** True while the file at `lockPath` is the one our descriptor holds (`mine`: its fstat). */
function isOurs(lockPath: string, mine: fs.Stats | null): boolean {
  if (mine === null) return false;
  try {
    return sameFile(mine, fs.lstatSync(lockPath));
  } catch {
    return false;
  }
}

/** What our descriptor holds, or null when it cannot be examined. */
function statOf(fd: number): fs.Stats | null {
  try {
    return fs.fstatSync(fd);
  } catch {
    return null;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Run `fn` under `<lock>.reclaim`, the guard every reclaim and every release of a holder that stalled
 * takes, so a reclaimer and a releaser never remove a lock someone else just created. Waits briefly for a busy guard; a guard left by
 * a crash is cleared. `fn` runs unguarded if the guard stays busy (a removal is then still checked).
 */
function underGuard<T>(lockPath: string, fn: () => T): T {
  const guard = `${lockPath}.reclaim`;
  let fd: number | null = null;
  for (let attempt = 0; attempt < 200 && fd === null; attempt++) {
    try {
      fd = tryCreate(guard);
    } catch {
      break; // the guard cannot be created (full disk): the removal below is still checked
    }
    if (fd !== null) break;
    const info = readHolder(guard);
    if (info && reclaimReason(info, GUARD_STALE_MS) !== null) unlinkIfPresent(guard);
    else sleepSync(Math.min(1 + attempt, 10));
  }
  try {
    return fn();
  } finally {
    if (fd !== null) {
      if (isOurs(guard, statOf(fd))) unlinkIfPresent(guard);
      fs.closeSync(fd);
    }
  }
}

/**
 * Remove a lock we judged dead, only if it still holds the record we judged and, read again under the
 * guard, is still reclaimable (a holder that refreshed it meanwhile is working). True when it is gone.
 */
function reclaim(lockPath: string, seen: HolderInfo, staleMs: number, warn: (m: string) => void): boolean {
  return underGuard(lockPath, () => {
    const current = readHolder(lockPath);
    if (current === null) return true;
    if (current.raw !== seen.raw) return false; // someone else took it meanwhile
    const reason = reclaimReason(current, staleMs);
    if (reason === null) return false; // refreshed since we judged it
    unlinkIfPresent(lockPath);
    if (!isDeadHolderReason(reason)) warn(`reclaimed lock ${lockPath}: ${reason}`);
    return true;
  });
}

/**
 * Remove our lock file. Only a reclaimer could replace it between the ownership check and the unlink,
 * and only one that judged it stale by its age: a live holder on this host is never reclaimed (a host
 * name names one set of processes, docs/foundation.md). So a holder whose every refresh came within
 * half the age bound (at most half the default, which a reclaimer may use) and whose last one is that
 * recent, by its clock and by the file's, removes it without the guard; one that ever stalled longer
 * takes the guard.
 */
function releaseFile(lockPath: string, held: Held): void {
  clearInterval(held.refresh);
  const mine = statOf(held.fd);
  const remove = () => {
    if (isOurs(lockPath, mine)) unlinkIfPresent(lockPath);
  };
  try {
    // Recent by both clocks: this process's monotonic one (it did not stall) and the file's own time,
    // which is what a reclaimer elsewhere judges (and which keeps passing while the machine sleeps).
    if (!held.late && monotonicMs() - held.refreshedAt < held.guardAfterMs && mine !== null && Date.now() - mine.mtimeMs < held.guardAfterMs) remove();
    else underGuard(lockPath, remove);
  } finally {
    fs.closeSync(held.fd);
  }
}

/** The held lock: its descriptor, and a timer refreshing its time every third of the age bound. */
function holdLock(fd: number, staleMs: number): Held {
  const bound = Math.min(staleMs, DEFAULT_LOCK_STALE_MS);
  const refresh = setInterval(() => {
    // An overdue refresh (the holder was stopped, its event loop blocked) marks the holding late first.
    const due = monotonicMs();
    if (due - held.refreshedAt >= held.guardAfterMs) held.late = true;
    try {
      const now = new Date();
      fs.futimesSync(fd, now, now);
      held.refreshedAt = due;
    } catch {
      // released meanwhile
    }
  }, Math.max(50, bound / 3));
  refresh.unref();
  const held: Held = { fd, refresh, refreshedAt: monotonicMs(), guardAfterMs: bound / 2, late: false };
  return held;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function lockTimeout(lockPath: string, timeoutMs: number, holder: LockHolder | null, where: string): AopError {
  return new AopError("lock_timeout", `could not acquire ${lockPath} within ${timeoutMs} ms (${where})`, {
    details: { lock: lockPath, holder },
    hint: "another aop call holds this lock; retry, or remove the lock file if its holder is gone",
  });
}

async function acquireFileLock(lockPath: string, deadline: number, options: LockOptions): Promise<Held> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const warn = options.warn ?? defaultWarn;
  assertContained(lockPath);
  let backoff = 1;
  for (;;) {
    const fd = tryCreate(lockPath);
    if (fd !== null) return holdLock(fd, staleMs);
    const info = readHolder(lockPath);
    if (info === null) continue; // released between attempts: try again at once
    const reason = reclaimReason(info, staleMs);
    if (reason !== null && reclaim(lockPath, info, staleMs, warn)) continue;
    if (Date.now() >= deadline) throw lockTimeout(lockPath, timeoutMs, info.holder, "held by another process");
    // Exponential backoff with full jitter, capped so a released lock is noticed quickly.
    await sleep(Math.random() * backoff);
    backoff = Math.min(backoff * 2, 25);
  }
}

/** Acquire the lock for `lockPath`; the returned function releases it (idempotent). */
export async function acquireLock(lockPath: string, options: LockOptions = {}): Promise<ReleaseLock> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  await enterQueue(lockPath, deadline, () => lockTimeout(lockPath, timeoutMs, null, "waiting behind other callers in this process"));
  let held: Held;
  try {
    held = await acquireFileLock(lockPath, deadline, options);
  } catch (err) {
    leaveQueue(lockPath);
    throw err;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      releaseFile(lockPath, held);
    } finally {
      leaveQueue(lockPath);
    }
  };
}

export async function withLock<T>(lockPath: string, fn: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await acquireLock(lockPath, options);
  try {
    return await fn();
  } finally {
    release();
  }
}
