// Cross-process lock: an exclusively created file holding {pid, hostname, acquired_at}.
// A dead holder on this host is reclaimed at once, an old lock with a warning; waiting is bounded.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AopError } from "../core/errors.js";
import { ensureDir } from "./atomic-write.js";
import { defaultFileMode } from "./layout.js";

export interface LockHolder {
  pid: number;
  hostname: string;
  acquired_at: string;
}

export interface LockOptions {
  /** Give up (lock_timeout) after waiting this long. */
  timeoutMs?: number;
  /**
   * A lock older than this is reclaimed with a warning, whoever holds it. Locks held across long work
   * pass Infinity and rely on the dead-holder check.
   */
  staleMs?: number;
  /** Receives reclaim warnings; defaults to stderr. */
  warn?: (message: string) => void;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 20_000;
export const DEFAULT_LOCK_STALE_MS = 10_000;
const UNREADABLE_HOLDER_MS = 5_000;
const HOSTNAME = os.hostname();

export type ReleaseLock = () => void;

// Callers in one process queue here, so the file lock only arbitrates between processes.
const inProcessTails = new Map<string, Promise<void>>();

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(lockPath: string): { holder: LockHolder | null; raw: string; ageMs: number } | null {
  try {
    const raw = fs.readFileSync(lockPath, "utf8");
    const ageMs = Date.now() - fs.statSync(lockPath).mtimeMs;
    let holder: LockHolder | null = null;
    try {
      const parsed = JSON.parse(raw) as LockHolder;
      if (typeof parsed.pid === "number" && typeof parsed.hostname === "string") holder = parsed;
    } catch {
      holder = null; // created but not yet written, or garbage: judged by age only
    }
    return { holder, raw, ageMs };
  } catch {
    return null; // vanished between our create attempt and the read
  }
}

const HOLDER_PREFIX = `{"pid":${process.pid},"hostname":${JSON.stringify(HOSTNAME)},"acquired_at":"`;

function tryCreate(lockPath: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, "wx", defaultFileMode(lockPath));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code === "ENOENT") {
      ensureDir(path.dirname(lockPath));
      return tryCreate(lockPath);
    }
    throw err;
  }
  try {
    fs.writeSync(fd, `${HOLDER_PREFIX}${new Date().toISOString()}"}`);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function removeLockFile(lockPath: string): void {
  try {
    fs.unlinkSync(lockPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** Why the current lock may be taken over, or null if it must be waited for. */
function reclaimReason(info: { holder: LockHolder | null; ageMs: number }, staleMs: number): string | null {
  const { holder, ageMs } = info;
  if (holder && holder.hostname === HOSTNAME && holder.pid !== process.pid && !processIsAlive(holder.pid)) {
    return `holder pid ${holder.pid} is no longer running`;
  }
  if (ageMs > staleMs) return `lock is ${Math.round(ageMs / 1000)}s old (bound ${Math.round(staleMs / 1000)}s)`;
  // The holder line is written right after the exclusive create; an empty or garbled holder that
  // stays so is a crash between the two, even for locks that are otherwise never reclaimed by age.
  if (holder === null && ageMs > Math.min(staleMs, UNREADABLE_HOLDER_MS)) return `lock holder is unreadable and ${Math.round(ageMs / 1000)}s old`;
  return null;
}

/**
 * Remove a lock we judged dead, under a short-lived guard so two reclaimers cannot
 * delete each other's fresh lock. Returns true when the lock file is gone.
 */
function reclaim(lockPath: string, seenRaw: string, reason: string, warn: (m: string) => void, staleMs: number): boolean {
  const guard = `${lockPath}.reclaim`;
  if (!tryCreate(guard)) {
    const info = readHolder(guard);
    if (info && reclaimReason(info, Math.min(staleMs, 2_000)) !== null) fs.rmSync(guard, { force: true });
    return false;
  }
  try {
    const current = readHolder(lockPath);
    if (current === null) return true;
    if (current.raw !== seenRaw) return false; // someone else took it meanwhile
    fs.rmSync(lockPath, { force: true });
    if (!reason.startsWith("holder pid")) warn(`reclaimed lock ${lockPath}: ${reason}`);
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function acquireFileLock(lockPath: string, options: LockOptions): Promise<ReleaseLock> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const warn = options.warn ?? defaultWarn;
  const deadline = Date.now() + timeoutMs;
  let backoff = 1;
  for (;;) {
    if (tryCreate(lockPath)) {
      return () => removeLockFile(lockPath);
    }
    const info = readHolder(lockPath);
    if (info) {
      const reason = reclaimReason(info, staleMs);
      if (reason !== null && reclaim(lockPath, info.raw, reason, warn, staleMs)) continue;
    } else {
      continue; // released between attempts: try again at once
    }
    if (Date.now() >= deadline) {
      throw new AopError("lock_timeout", `could not acquire ${lockPath} within ${timeoutMs} ms`, {
        details: { lock: lockPath, holder: info.holder },
        hint: "another aop process holds this lock; retry, or remove the lock file if its holder is gone",
      });
    }
    // Exponential backoff with full jitter, capped so a released lock is noticed quickly.
    await sleep(Math.random() * backoff);
    backoff = Math.min(backoff * 2, 25);
  }
}

/** Acquire the lock for `lockPath`; the returned function releases it (idempotent). */
export async function acquireLock(lockPath: string, options: LockOptions = {}): Promise<ReleaseLock> {
  const previous = inProcessTails.get(lockPath);
  let releaseQueue!: () => void;
  const mine = new Promise<void>((resolve) => {
    releaseQueue = resolve;
  });
  const tail = previous ? previous.then(() => mine) : mine;
  inProcessTails.set(lockPath, tail);
  if (previous) await previous;
  const leaveQueue = () => {
    if (inProcessTails.get(lockPath) === tail) inProcessTails.delete(lockPath);
    releaseQueue();
  };
  let releaseFile: ReleaseLock;
  try {
    releaseFile = await acquireFileLock(lockPath, options);
  } catch (err) {
    leaveQueue();
    throw err;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      releaseFile();
    } finally {
      leaveQueue();
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
