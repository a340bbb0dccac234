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

/**
 * A run's index as read: the postings stay text (`raw`, the JSON object as written) until a search
 * adds lines to them; `candidates` looks up only the query words' keys in it.
 */
export interface LoadedIndex extends Omit<RunIndex, "postings"> {
  postings: Record<string, number[] | null> | null;
  raw: string;
  /** True when the postings proved unreadable: the caller reads every line and the file is rebuilt. */
  damaged: boolean;
}

const POSTINGS_KEY = ',"postings":{';

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
 * another version, or a file rewritten or cut under it). Only the fields before the postings are
 * parsed here (JSON.stringify writes `postings` last, and a `"` inside a string value is escaped, so the
 * first `,"postings":{` starts them); postings are read and checked lazily (see `candidates`).
 */
export function loadIndex(layout: WorkspaceLayout, runId: string, timeline: TimelineFile): LoadedIndex | null {
  const read = readBytesBounded(layout.searchIndexFile(runId), READ_LIMITS.searchIndex);
  if (read.status !== "ok") return null;
  const text = read.bytes.toString("utf8");
  const at = text.indexOf(POSTINGS_KEY);
  if (at === -1 || !text.endsWith("}}")) return null;
  let value: unknown;
  try {
    value = JSON.parse(`${text.slice(0, at)},"postings":{}}`);
  } catch {
    return null;
  }
  if (!isIndex(value, runId) || value.file_size > timeline.end) return null;
  const size = value.file_size;
  if (size > 0 && readAt(timeline, size - 1, 1)[0] !== 0x0a) return null;
  if (headHash(timeline, size) !== value.head_sha256 || tailHash(timeline, size) !== value.tail_sha256) return null;
  return { ...value, postings: null, raw: text.slice(at + POSTINGS_KEY.length - 1, -1), damaged: false };
}

/** The whole postings (parsed on first need); null, and the index marked damaged, when unreadable. */
function postingsOf(index: LoadedIndex | RunIndex): Record<string, number[] | null> | null {
  if (index.postings !== null || !("raw" in index)) return index.postings;
  try {
    const value: unknown = JSON.parse(index.raw);
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new SyntaxError("postings are not an object");
    index.postings = Object.setPrototypeOf(value, null) as Record<string, number[] | null>;
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    index.damaged = true;
  }
  return index.postings;
}

/**
 * The postings of every key starting with `word`, found in the raw text: keys are words (letters and
 * digits) and values arrays of numbers or null, so a `"` followed by the word opens such a key. Each is
 * the array's text, or null for a word too common to keep one. Null when the text cannot be read that
 * way (an escape, or not the shape written): the caller parses it all.
 */
function rawLookup(raw: string, word: string): (string | null)[] | null {
  if (raw.includes("\\")) return null;
  const lists: (string | null)[] = [];
  const needle = `"${word}`;
  for (let at = raw.indexOf(needle); at !== -1; at = raw.indexOf(needle, at + 1)) {
    const close = raw.indexOf('"', at + 1);
    if (close === -1 || raw[close + 1] !== ":") return null;
    if (raw.startsWith("null", close + 2)) {
      lists.push(null);
      continue;
    }
    const end = raw.indexOf("]", close + 2);
    if (raw[close + 2] !== "[" || end === -1) return null;
    lists.push(raw.slice(close + 2, end + 1));
  }
  return lists;
}

/** Each query word's postings from the raw text, the shortest first (null: read the text another way). */
function rawPostings(raw: string, words: readonly string[]): (number[] | null)[][] | null {
  const found: (string | null)[][] = [];
  // The longest word first: it starts the fewest keys, and a word starting none ends the lookup (no line holds it).
  for (const word of [...words].sort((a, b) => b.length - a.length)) {
    const lists = rawLookup(raw, word);
    if (lists === null) return null;
    if (lists.length === 0) return [[]];
    found.push(lists);
  }
  const size = (lists: (string | null)[]) => (lists.includes(null) ? Infinity : lists.reduce((n, l) => n + l!.length, 0));
  // A word too common to narrow is skipped anyway; the others, fewest bytes first, so a word on no
  // line of the run ends the lookup before the longer lists are parsed.
  const sorted = found.sort((a, b) => size(a) - size(b));
  try {
    return sorted.map((lists) => lists.map((l) => (l === null ? null : (JSON.parse(l) as number[]))));
  } catch {
    return null;
  }
}

/** Adds the line at `offset` holding `tokens` (deduplicated by the caller). */
export function addLine(index: LoadedIndex | RunIndex, offset: number, tokens: Iterable<string>): void {
  const postings = postingsOf(index);
  if (postings === null) return;
  for (const token of tokens) {
    const list = postings[token];
    if (list === null) continue;
    if (list === undefined) postings[token] = [offset];
    else if (list.length >= POSTINGS_CAP) postings[token] = null;
    else list.push(offset);
  }
  index.lines += 1;
}

/**
 * Offsets of the indexed lines that can hold every word, ascending; null when the index cannot narrow
 * the search (no words, or each word starts a word too common to keep postings). A candidate is only a
 * candidate: the caller reads the line and matches it (a word prefix unions the postings of its words).
 */
export function candidates(index: LoadedIndex | RunIndex, words: readonly string[]): number[] | null {
  let perWord = index.postings === null && "raw" in index ? rawPostings(index.raw, words) : null;
  if (perWord === null) {
    const postings = postingsOf(index);
    if (postings === null) return null; // unreadable: every line is read
    const tokens = Object.keys(postings);
    perWord = words.map((word) => tokens.filter((t) => t.startsWith(word)).map((t) => postings[t] ?? null));
  }
  let narrowed: number[] | null = null;
  for (const lists of perWord) {
    const union = new Set<number>();
    let common = false;
    for (const list of lists) {
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
export function saveIndex(layout: WorkspaceLayout, index: LoadedIndex | RunIndex, timeline: TimelineFile): boolean {
  const postings = postingsOf(index);
  if (postings === null) {
    fs.rmSync(layout.searchIndexFile(index.run_id), { force: true }); // unreadable: the next search builds it anew
    return false;
  }
  const whole: RunIndex = { version: index.version, run_id: index.run_id, file_size: index.file_size, head_sha256: headHash(timeline, index.file_size), tail_sha256: tailHash(timeline, index.file_size), lines: index.lines, postings };
  const text = JSON.stringify(whole);
  if (text.length > MAX_INDEX_BYTES) return false;
  ensureDir(layout.searchIndexDir);
  writeFileAtomic(layout.searchIndexFile(whole.run_id), text, { durable: false });
  return true;
}

/** Removes every run's index (`aop search --reindex` rebuilds them as it searches). */
export function dropIndexes(layout: WorkspaceLayout): void {
  fs.rmSync(layout.searchIndexDir, { recursive: true, force: true });
}
