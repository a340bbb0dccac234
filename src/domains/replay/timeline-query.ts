// replay.timeline_get: one run's entries, filtered, ordered by sequence, paged. Reads stream (memory
// stays bounded on huge files) and seek through the meta's offset index.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import { readJsonl, type JsonlReadStats } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { validateId } from "../../core/ids.js";
import { asEntry, type TimelineEntry } from "./timeline-entry.js";
import { FirstPage, hasContentFilter, matches, type TimelineFilter } from "./timeline-filter.js";
import { seekOffset, type TimelineMeta } from "./timeline-meta.js";
import { catchUp, readMetaFile } from "./timeline-scan.js";

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;

export interface TimelineQuery extends TimelineFilter {
  run_id: string;
  limit?: number;
}

export interface TimelinePage {
  run_id: string;
  entries: TimelineEntry[];
  total_matched: number;
  next_from_sequence: number | null;
  skipped_lines: number;
}

/** The meta brought up to date with the file (in memory), or null when it cannot be trusted. */
async function currentMeta(layout: WorkspaceLayout, runId: string, file: string, size: number): Promise<TimelineMeta | null> {
  const meta = readMetaFile(layout, runId);
  if (!meta || meta.file_size > size) return null;
  if (meta.file_size === size) return meta;
  return (await catchUp(file, runId, meta, size)).meta;
}

export async function queryTimeline(layout: WorkspaceLayout, query: TimelineQuery): Promise<TimelinePage> {
  const runId = validateId("run_id", query.run_id);
  const file = layout.timelineFile(runId);
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) {
    throw new AopError("replay_run_not_found", `no timeline for run '${runId}'`, { details: { run_id: runId }, hint: "list runs with `aop replay --list`" });
  }
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const meta = await currentMeta(layout, runId, file, stat.size);
  // A file whose lines are exactly sequences 0..head in order lets us seek and count without scanning.
  const clean = meta !== null && meta.skipped_lines === 0 && meta.sequence_anomalies === 0;
  if (clean && !hasContentFilter(query)) return cleanRangePage(file, runId, meta, query, limit);
  return scanPage(file, runId, clean ? meta : null, query, limit);
}

async function cleanRangePage(file: string, runId: string, meta: TimelineMeta, query: TimelineQuery, limit: number): Promise<TimelinePage> {
  const from = Math.max(query.from_sequence ?? 0, 0);
  const to = Math.min(query.to_sequence ?? meta.sequence_head, meta.sequence_head);
  const total = Math.max(0, to - from + 1);
  const entries: TimelineEntry[] = [];
  if (total > 0 && limit > 0) {
    for await (const record of readJsonl(file, { fromOffset: seekOffset(meta, from) })) {
      if (record.offset >= meta.file_size) break;
      const entry = asEntry(record.value);
      if (!entry || entry.sequence < from) continue;
      if (entry.sequence > to || entries.length >= limit) break;
      entries.push(entry);
    }
  }
  const last = entries[entries.length - 1];
  const next = last && last.sequence < to ? last.sequence + 1 : null;
  return { run_id: runId, entries, total_matched: total, next_from_sequence: next, skipped_lines: 0 };
}

async function scanPage(file: string, runId: string, seekMeta: TimelineMeta | null, query: TimelineQuery, limit: number): Promise<TimelinePage> {
  const page = new FirstPage(limit + 1); // one extra tells where the next page starts
  const stats: JsonlReadStats = { lines: 0, skipped: 0, tornTail: false, endOffset: 0 };
  const fromOffset = seekMeta && query.from_sequence !== undefined ? seekOffset(seekMeta, query.from_sequence) : 0;
  let total = 0;
  let invalid = 0;
  for await (const record of readJsonl(file, { fromOffset }, stats)) {
    const entry = asEntry(record.value);
    if (!entry) {
      invalid += 1;
      continue;
    }
    if (!matches(entry, query)) continue;
    total += 1;
    page.offer(entry);
  }
  const entries = page.entries.slice(0, limit);
  const extra = page.entries[limit];
  return { run_id: runId, entries, total_matched: total, next_from_sequence: extra ? extra.sequence : null, skipped_lines: stats.skipped + invalid };
}
