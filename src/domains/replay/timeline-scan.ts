// Reads a timeline's meta, checks it against the file, and brings a meta up to date with the file by
// scanning from where it stopped. The file is the truth: a meta that disagrees with it is not used.
import { describeRefusal, readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { readJsonl, type JsonlReadStats } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { asEntry } from "./timeline-entry.js";
import { emptyMeta, noteEntry, parseMeta, type TimelineMeta } from "./timeline-meta.js";
import { TimelineFile } from "./timeline-seek.js";

/** The meta file parsed as our cache (see parseMeta), unchecked; null when there is none or it is not ours. */
export function readMetaFile(layout: WorkspaceLayout, runId: string): TimelineMeta | null {
  const value = readMetaValue(layout, runId);
  return value.exists && value.ok ? parseMeta(value.value, runId) : null;
}

export type MetaValue = { exists: false } | { exists: true; ok: true; value: unknown } | { exists: true; ok: false; problem: string };

/** The meta file as JSON, whatever its shape. */
export function readMetaValue(layout: WorkspaceLayout, runId: string): MetaValue {
  const read = readBytesBounded(layout.timelineMeta(runId), READ_LIMITS.timelineMeta);
  if (read.status === "missing") return { exists: false };
  if (read.status !== "ok") return { exists: true, ok: false, problem: describeRefusal(read) };
  try {
    return { exists: true, ok: true, value: JSON.parse(read.bytes.toString("utf8")) };
  } catch {
    return { exists: true, ok: false, problem: "is not valid JSON" };
  }
}

/**
 * Whether `meta` describes the start of the file as it is: its `file_size` ends a line within the file
 * and the last entry before it has sequence `sequence_head`. Two small reads; a poisoned or stale
 * meta (a head the file does not have, a file rewritten under it) fails.
 */
function metaMatchesFile(timeline: TimelineFile, meta: TimelineMeta): boolean {
  if (meta.file_size > timeline.end || meta.file_size < 0) return false;
  if (meta.file_size === 0) return meta.entry_count === 0 && meta.sequence_head === -1;
  if (timeline.lineStartAtOrAfter(meta.file_size) !== meta.file_size) return false;
  return timeline.lastEntryBefore(meta.file_size)?.entry?.sequence === meta.sequence_head;
}

/** Our meta for the run when it matches the file (metaMatchesFile), else null. Opens the file unless given. */
export function trustedMeta(layout: WorkspaceLayout, runId: string, opened?: TimelineFile): TimelineMeta | null {
  const meta = readMetaFile(layout, runId);
  if (!meta) return null;
  const timeline = opened ?? TimelineFile.open(layout.timelineFile(runId));
  if (!timeline) return null;
  try {
    return metaMatchesFile(timeline, meta) ? meta : null;
  } finally {
    if (!opened) timeline.close();
  }
}

export interface ScanResult {
  meta: TimelineMeta;
  /** True when the file ends in a line without `\n` (left by a crashed writer, or being written now). */
  tornTail: boolean;
}

/**
 * The meta matching the file: start from `known` when it is consistent with the file (not beyond its
 * size), else from scratch, and fold in every complete line after it. `meta.file_size` ends just past
 * the last complete line, so a torn tail is excluded.
 */
export async function catchUp(file: string, runId: string, known: TimelineMeta | null, fileSize: number): Promise<ScanResult> {
  // A meta that is up to date comes back as it is; one that is behind is copied before it is caught up
  // (the index shared until a pair is added: a long run's holds thousands, and a hook reads it per call).
  if (known && known.file_size === fileSize) return { meta: known, tornTail: false };
  const meta = known && known.file_size < fileSize ? { ...known, index: known.index.slice() } : emptyMeta(runId);
  if (meta.file_size === fileSize) return { meta, tornTail: false };
  const stats: JsonlReadStats = { lines: 0, skipped: 0, tornTail: false, endOffset: meta.file_size };
  let invalid = 0;
  for await (const record of readJsonl(file, { fromOffset: meta.file_size }, stats)) {
    const entry = asEntry(record.value);
    if (entry) noteEntry(meta, entry, record.offset);
    else invalid += 1;
  }
  // stats.skipped counts unparseable lines plus the torn tail; invalid counts parseable non-entries.
  meta.skipped_lines += invalid + stats.skipped - (stats.tornTail ? 1 : 0);
  meta.file_size = stats.endOffset;
  return { meta, tornTail: stats.tornTail };
}
