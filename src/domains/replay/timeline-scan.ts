// Reads a timeline's meta, and brings a meta up to date with the file by scanning from where it stopped.
import { readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { readJsonl, type JsonlReadStats } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { asEntry } from "./timeline-entry.js";
import { emptyMeta, noteEntry, parseMeta, type TimelineMeta } from "./timeline-meta.js";

/** The run's meta cache, or null when it is missing or unusable (then it is rebuilt from the timeline). */
export function readMetaFile(layout: WorkspaceLayout, runId: string): TimelineMeta | null {
  const read = readBytesBounded(layout.timelineMeta(runId), READ_LIMITS.timelineMeta);
  if (read.status !== "ok") return null;
  try {
    return parseMeta(JSON.parse(read.bytes.toString("utf8")), runId);
  } catch {
    return null;
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
  const meta = known && known.file_size <= fileSize ? structuredClone(known) : emptyMeta(runId);
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
