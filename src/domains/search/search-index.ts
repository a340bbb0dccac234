// The search index of one run: for the first `file_size` bytes of its timeline, which lines (by byte
// offset) hold each word. An optimisation only (docs/replay.md, "Search"): it is checked against the file
// before use (size, a line end, hashes of its first and last bytes), any doubt drops it, and whatever
// lies past `file_size` is read from the file. Kept up to date at search time, never on the append path.
import fs from "node:fs";
import { sha256Hex } from "../../core/hash.js";
import { ensureDir, writeFileAtomic } from "../../store/atomic-write.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { TimelineFile } from "../replay/index.js";

const INDEX_VERSION = 1;
/** A word on more lines than this (per run) keeps no postings: it cannot narrow a search, the lines are read. */
const POSTINGS_CAP = 4096;
/** A larger index is not written (a search then reads the run's file). */
const MAX_INDEX_BYTES = 8 * 1024 * 1024;
const PROBE = 256;

export interface RunIndex {
  version: number;
  run_id: string;
  /** Bytes of the timeline indexed: just past a `\n`. */
  file_size: number;
  head_sha256: string;
  tail_sha256: string;
  lines: number;
  /** word → offsets of the lines holding it, ascending; null when past POSTINGS_CAP. */
  postings: Record<string, number[] | null>;
}

function readAt(timeline: TimelineFile, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(timeline.fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

function headHash(timeline: TimelineFile, size: number): string {
  return sha256Hex(readAt(timeline, 0, Math.min(PROBE, size)));
}

function tailHash(timeline: TimelineFile, size: number): string {
  const from = Math.max(0, size - PROBE);
  return sha256Hex(readAt(timeline, from, size - from));
}

export function emptyIndex(runId: string, timeline: TimelineFile): RunIndex {
  return { version: INDEX_VERSION, run_id: runId, file_size: 0, head_sha256: headHash(timeline, 0), tail_sha256: tailHash(timeline, 0), lines: 0, postings: Object.create(null) as Record<string, number[] | null> };
}

function isIndex(value: unknown, runId: string): value is RunIndex {
  if (value === null || typeof value !== "object") return false;
  const v = value as Partial<RunIndex>;
  return (
    v.version === INDEX_VERSION &&
    v.run_id === runId &&
    typeof v.file_size === "number" &&
    Number.isSafeInteger(v.file_size) &&
    v.file_size >= 0 &&
    typeof v.head_sha256 === "string" &&
    typeof v.tail_sha256 === "string" &&
    typeof v.lines === "number" &&
    v.postings !== null &&
    typeof v.postings === "object" &&
    !Array.isArray(v.postings)
  );
}

/**
 * The run's index when it describes the start of the file as it is now, else null (missing, damaged,
 * another version, or a file rewritten or cut under it). Postings are checked lazily (see `candidates`).
 */
export function loadIndex(layout: WorkspaceLayout, runId: string, timeline: TimelineFile): RunIndex | null {
  const read = readBytesBounded(layout.searchIndexFile(runId), READ_LIMITS.searchIndex);
  if (read.status !== "ok") return null;
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return null;
  }
  if (!isIndex(value, runId) || value.file_size > timeline.end) return null;
  const size = value.file_size;
  if (size > 0 && readAt(timeline, size - 1, 1)[0] !== 0x0a) return null;
  if (headHash(timeline, size) !== value.head_sha256 || tailHash(timeline, size) !== value.tail_sha256) return null;
  Object.setPrototypeOf(value.postings, null);
  return value;
}

/** Adds the line at `offset` holding `tokens` (deduplicated by the caller). */
export function addLine(index: RunIndex, offset: number, tokens: Iterable<string>): void {
  for (const token of tokens) {
    const list = index.postings[token];
    if (list === null) continue;
    if (list === undefined) index.postings[token] = [offset];
    else if (list.length >= POSTINGS_CAP) index.postings[token] = null;
    else list.push(offset);
  }
  index.lines += 1;
}

/**
 * Offsets of the indexed lines that can hold every word, ascending; null when the index cannot narrow
 * the search (no words, or each word starts a word too common to keep postings). A candidate is only a
 * candidate: the caller reads the line and matches it (a word prefix unions the postings of its words).
 */
export function candidates(index: RunIndex, words: readonly string[]): number[] | null {
  let narrowed: number[] | null = null;
  const tokens = Object.keys(index.postings);
  for (const word of words) {
    const union = new Set<number>();
    let common = false;
    for (const token of tokens) {
      if (!token.startsWith(word)) continue;
      const list = index.postings[token];
      if (list === null || !Array.isArray(list)) {
        common = true;
        break;
      }
      for (const offset of list) if (typeof offset === "number") union.add(offset);
    }
    if (common) continue;
    narrowed = narrowed === null ? [...union] : narrowed.filter((o) => union.has(o));
    if (narrowed.length === 0) return narrowed;
  }
  return narrowed === null ? null : narrowed.sort((a, b) => a - b);
}

/** Writes the index (atomic; a concurrent search writing too leaves one whole index or the other). */
export function saveIndex(layout: WorkspaceLayout, index: RunIndex, timeline: TimelineFile): boolean {
  index.head_sha256 = headHash(timeline, index.file_size);
  index.tail_sha256 = tailHash(timeline, index.file_size);
  const text = JSON.stringify(index);
  if (text.length > MAX_INDEX_BYTES) return false;
  ensureDir(layout.searchIndexDir);
  writeFileAtomic(layout.searchIndexFile(index.run_id), text, { durable: false });
  return true;
}

/** Removes every run's index (`aop search --reindex` rebuilds them as it searches). */
export function dropIndexes(layout: WorkspaceLayout): void {
  fs.rmSync(layout.searchIndexDir, { recursive: true, force: true });
}
