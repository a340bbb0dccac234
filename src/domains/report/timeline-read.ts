// Reads one run's timeline for the report: bounded (at most the newest `maxEntries` entries from the
// last `maxBytes` of the file), never through a symbolic link or from a FIFO, device or socket, and
// keeping the fields the contract does not name (subagent ids and anything else a writer added).
import fs from "node:fs";
import { openJsonl, readJsonl, type JsonlReadStats } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { asEntry, ENTRY_KEYS, readExtras, type TimelineEntry } from "../replay/index.js";
import type { TimelineRecord } from "./timeline-codec.js";
import { regularFileProblem } from "./regular-file.js";

export interface ReadBounds {
  maxEntries: number;
  maxBytes: number;
  /** Entries completed before this instant (epoch ms) are left out. */
  sinceMs: number | null;
  /** Start here (a byte offset past a complete line) instead of at the bound. */
  fromOffset?: number;
}

export interface RunRead {
  records: TimelineRecord[];
  /** Offset just past the last complete line read: where a live tail continues. */
  cursor: number;
  /** Lines that were not entries (torn, edited, garbage), within what was read. */
  skipped_lines: number;
  /** True when older bytes of the file were not read (over maxBytes). */
  cut: boolean;
  /** Why nothing was read, when the file was refused. */
  problem: string | null;
}

// The codec's record type is written out for the page (which compiles without Node types and so cannot
// import the replay domain); this fails to compile the day it stops being the replay contract's entry.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const SAME_AS_REPLAY_ENTRY: Same<Omit<TimelineRecord, "session_id" | "agent_id" | "agent_type" | "extra">, Omit<TimelineEntry, "session_id">> = true;
void SAME_AS_REPLAY_ENTRY;

/** Extra fields bigger than this (serialized) are summarised rather than embedded. */
const MAX_EXTRA_BYTES = 4096;
const CONTRACT_KEYS = new Set<string>([...ENTRY_KEYS, "agent_id", "agent_type"]);

/** The offset of the first line starting at or after `offset` (0 stays 0). */
function nextLineStart(file: string, offset: number): number {
  if (offset === 0) return 0;
  const fd = openJsonl(file);
  try {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (let at = offset - 1; ; ) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, at);
      if (n === 0) return at;
      const nl = buffer.subarray(0, n).indexOf(0x0a);
      if (nl !== -1) return at + nl + 1;
      at += n;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The sidecar's extras of the records' sequences, joined in place (docs/replay.md); a missing or damaged sidecar loses extras only. */
function joinSidecar(layout: WorkspaceLayout, runId: string, records: TimelineRecord[]): void {
  if (records.length === 0) return;
  let lo = Infinity;
  let hi = -1;
  for (const r of records) {
    if (r.sequence < lo) lo = r.sequence;
    if (r.sequence > hi) hi = r.sequence;
  }
  const extras = readExtras(layout, runId, { from: lo, to: hi });
  if (extras.size === 0) return;
  for (const r of records) {
    const ext = extras.get(r.sequence);
    if (!ext) continue;
    const joined = toRecord({ ...ext, ...contractOf(r), sequence: r.sequence });
    r.agent_id = joined?.agent_id ?? r.agent_id;
    r.agent_type = joined?.agent_type ?? r.agent_type;
    const extra = { ...(r.extra ?? {}), ...(joined?.extra ?? {}) };
    r.extra = Object.keys(extra).length > 0 ? extra : null;
  }
}

function contractOf(r: TimelineRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ENTRY_KEYS) out[key] = (r as unknown as Record<string, unknown>)[key];
  return out;
}

/** A line as a record (an older line's extras, written into the line itself, under `extra`). */
function toRecord(value: unknown): TimelineRecord | null {
  const entry = asEntry(value) as unknown as TimelineRecord | null;
  if (!entry) return null;
  const line = value as Record<string, unknown>;
  const raw = line;
  // asEntry lifts named extras and `ext`; the report lists every extra under `extra` instead.
  delete (entry as { ext?: unknown }).ext;
  for (const key of ["marker", "transport", "request_hash_skipped"]) delete (entry as unknown as Record<string, unknown>)[key];
  if (line.session_id === null || line.session_id === undefined || entry.session_id === entry.run_id) entry.session_id = null;
  let extra: Record<string, unknown> | null = null;
  for (const key in raw) {
    if (CONTRACT_KEYS.has(key)) continue;
    (extra ??= {})[key] = raw[key];
  }
  if (extra) {
    const size = JSON.stringify(extra).length;
    if (size > MAX_EXTRA_BYTES) extra = { "(not embedded)": `${size} bytes of fields outside the timeline contract` };
  }
  // asEntry returns a fresh object: completing it in place saves a copy per line.
  entry.agent_id = typeof raw.agent_id === "string" && raw.agent_id !== "" ? raw.agent_id : null;
  entry.agent_type = typeof raw.agent_type === "string" && raw.agent_type !== "" ? raw.agent_type : null;
  entry.extra = extra;
  return entry;
}

export async function readRunRecords(layout: WorkspaceLayout, runId: string, bounds: ReadBounds): Promise<RunRead> {
  const file = layout.timelineFile(runId);
  const { problem, size } = regularFileProblem(file);
  if (problem) return { records: [], cursor: 0, skipped_lines: 0, cut: false, problem };
  const floor = Math.max(0, size - bounds.maxBytes);
  const from = bounds.fromOffset !== undefined && bounds.fromOffset >= floor ? bounds.fromOffset : nextLineStart(file, floor);
  const stats: JsonlReadStats = { lines: 0, skipped: 0, tornTail: false, endOffset: from };
  // A ring of the newest maxEntries records: memory stays bounded whatever the file holds.
  const ring: TimelineRecord[] = [];
  let head = 0;
  let invalid = 0;
  for await (const line of readJsonl(file, { fromOffset: from }, stats)) {
    const record = toRecord(line.value);
    if (!record) {
      invalid += 1;
      continue;
    }
    if (bounds.sinceMs !== null) {
      const at = Date.parse(record.ts);
      if (!Number.isNaN(at) && at < bounds.sinceMs) continue;
    }
    if (ring.length < bounds.maxEntries) ring.push(record);
    else {
      ring[head] = record;
      head = (head + 1) % bounds.maxEntries;
    }
  }
  const records = head === 0 ? ring : [...ring.slice(head), ...ring.slice(0, head)];
  joinSidecar(layout, runId, records);
  // A torn last line is not counted: it is an append in progress (or a crash the writer repairs).
  const skipped = invalid + stats.skipped - (stats.tornTail ? 1 : 0);
  return { records, cursor: stats.endOffset, skipped_lines: skipped, cut: from > 0 && bounds.fromOffset === undefined, problem: null };
}
