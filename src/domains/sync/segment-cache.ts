// What a push remembers of each timeline's complete segments (docs/sync.md "Segment cache"): a complete
// segment (SEGMENT_LINES whole lines) never changes while the timeline is only appended to, so its blob id
// and the byte offset it ends at are kept in `.aop/runtime/sync/segments.json` and the next push reads and
// hashes only the bytes after it. An entry is used only when the file is the same one (inode), is at least
// as long, and its first and last 4 KiB before that offset hash as they did; anything else (a rewritten,
// replaced or truncated timeline) reads the whole file again. The cache is local and never pushed.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeJsonAtomic } from "../../store/atomic-write.js";
import { SEGMENT_LINES } from "./record-tree.js";

export interface CachedRun {
  ino: number;
  /** Byte offset where the last cached (complete) segment ends. */
  end: number;
  /** Lines before `end`: SEGMENT_LINES × firsts.length. */
  lines: number;
  firsts: number[];
  oids: string[];
  head: string;
  tail: string;
}

interface CacheFile {
  version: 1;
  format: string;
  runs: Record<string, CachedRun>;
}

const PROBE = 4096;
const FILE = "segments.json";
const MAX_CACHE_BYTES = 16 * 1024 * 1024;

/** The cached runs for this object format ({} when there is no usable cache). */
export function readSegmentCache(syncDir: string, format: string): Record<string, CachedRun> {
  try {
    const file = path.join(syncDir, FILE);
    if (fs.lstatSync(file).size > MAX_CACHE_BYTES) return {};
    const data = JSON.parse(fs.readFileSync(file, "utf8")) as CacheFile;
    if (data?.version !== 1 || data.format !== format || typeof data.runs !== "object" || data.runs === null) return {};
    const runs: Record<string, CachedRun> = {};
    for (const [run, c] of Object.entries(data.runs)) if (wellFormed(c)) runs[run] = c;
    return runs;
  } catch {
    return {}; // absent or unreadable: every timeline is read in full
  }
}

function wellFormed(c: CachedRun): boolean {
  return (
    Number.isSafeInteger(c?.ino) &&
    Number.isSafeInteger(c.end) &&
    Array.isArray(c.firsts) &&
    Array.isArray(c.oids) &&
    c.firsts.length === c.oids.length &&
    c.firsts.length > 0 &&
    c.lines === c.firsts.length * SEGMENT_LINES &&
    c.firsts.every((f) => Number.isSafeInteger(f)) &&
    c.oids.every((o) => typeof o === "string" && /^[0-9a-f]{40,64}$/.test(o)) &&
    typeof c.head === "string" &&
    typeof c.tail === "string"
  );
}

export function writeSegmentCache(syncDir: string, format: string, runs: Record<string, CachedRun>): void {
  const data: CacheFile = { version: 1, format, runs };
  writeJsonAtomic(path.join(syncDir, FILE), data);
}

function hashRange(fd: number, from: number, to: number): string {
  const buf = Buffer.alloc(to - from);
  let got = 0;
  while (got < buf.length) {
    const n = fs.readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return createHash("sha256").update(buf.subarray(0, got)).digest("hex");
}

/** The fingerprint of an open timeline's first `end` bytes: its first and last PROBE bytes. */
export function fingerprint(fd: number, end: number): { head: string; tail: string } {
  return { head: hashRange(fd, 0, Math.min(PROBE, end)), tail: hashRange(fd, Math.max(0, end - PROBE), end) };
}

/** Whether `cached` still describes the open file `fd` (same inode, long enough, same head and tail). */
export function stillValid(fd: number, st: fs.Stats, cached: CachedRun): boolean {
  if (st.ino !== cached.ino || st.size < cached.end) return false;
  const now = fingerprint(fd, cached.end);
  return now.head === cached.head && now.tail === cached.tail;
}
