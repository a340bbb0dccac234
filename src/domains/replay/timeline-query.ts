// replay.timeline_get: one run's entries, filtered, ordered by sequence, paged. A query reads a small
// part of the file: the page is found by bisecting byte offsets (sequences increase in file order),
// narrowed by our meta's offset index when the meta matches the file, and read forward from there. Only
// a file known or found to break the sequence rule, or a content filter, reads further (docs/replay.md).
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { validateId } from "../../core/ids.js";
import type { TimelineEntry } from "./timeline-entry.js";
import { FirstPage, hasContentFilter, matches, type TimelineFilter } from "./timeline-filter.js";
import { seekOffset, type TimelineMeta } from "./timeline-meta.js";
import { trustedMeta } from "./timeline-scan.js";
import { TimelineFile, type FileReader } from "./timeline-seek.js";
import { joinSidecar } from "./timeline-ext.js";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

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

export interface QueryOptions {
  /** How the file is read (tests count bytes through it). */
  reader?: FileReader;
}

/** Thrown inside a page read that meets a line breaking the sequence rule: the whole file is scanned instead. */
class NotInSequence extends Error {}

/** One page of entries, the sidecar's extras joined back by sequence (DESIGN §21). */
export async function queryTimeline(layout: WorkspaceLayout, query: TimelineQuery, options: QueryOptions = {}): Promise<TimelinePage> {
  const page = await queryLines(layout, query, options);
  joinSidecar(layout, page.run_id, page.entries);
  return page;
}

async function queryLines(layout: WorkspaceLayout, query: TimelineQuery, options: QueryOptions): Promise<TimelinePage> {
  const runId = validateId("run_id", query.run_id);
  const timeline = TimelineFile.open(layout.timelineFile(runId), options.reader);
  if (!timeline) {
    throw new AopError("replay_run_not_found", `no timeline for run '${runId}'`, { details: { run_id: runId }, hint: "list runs with `aop replay --list`" });
  }
  try {
    const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
    const meta = trustedMeta(layout, runId, timeline);
    // Our meta counted unreadable lines or sequence anomalies: only a full scan gives exact pages.
    if (meta && (meta.skipped_lines > 0 || meta.sequence_anomalies > 0)) return scanPage(timeline, runId, 0, query, limit);
    try {
      const start = query.from_sequence === undefined ? 0 : seekTo(timeline, meta, query.from_sequence);
      return hasContentFilter(query) ? scanPage(timeline, runId, start, query, limit) : rangePage(timeline, runId, start, query, limit);
    } catch (err) {
      if (err instanceof NotInSequence) return scanPage(timeline, runId, 0, query, limit);
      throw err;
    }
  } finally {
    timeline.close();
  }
}

/** A line start at or before the first entry with sequence ≥ `sequence`. */
function seekTo(timeline: TimelineFile, meta: TimelineMeta | null, sequence: number): number {
  const lo = meta ? seekOffset(meta, sequence) : 0;
  return timeline.seek(sequence, lo);
}

/** Follows sequences while reading forward: a line that is not the next one means the rule is broken. */
class SequenceCheck {
  private previous: number | null = null;
  constructor(private readonly strict: boolean) {}
  note(entry: TimelineEntry | null, blank: boolean): void {
    if (!this.strict) return;
    if (!entry) {
      if (!blank) throw new NotInSequence();
      return;
    }
    if (this.previous !== null && entry.sequence !== this.previous + 1) throw new NotInSequence();
    this.previous = entry.sequence;
  }
}

/**
 * A sequence range without other filters. The last entry of the file gives the highest sequence, so
 * `total_matched` is arithmetic (sequences are gap-free); the page is read forward from the seek point.
 */
function rangePage(timeline: TimelineFile, runId: string, start: number, query: TimelineQuery, limit: number): TimelinePage {
  const last = timeline.lastEntryBefore(timeline.end);
  if (!last?.entry) {
    if (timeline.end === 0) return { run_id: runId, entries: [], total_matched: 0, next_from_sequence: null, skipped_lines: 0 };
    throw new NotInSequence(); // its last lines are not entries
  }
  const head = last.entry.sequence;
  const from = Math.max(query.from_sequence ?? 0, 0);
  const to = Math.min(query.to_sequence ?? head, head);
  const total = Math.max(0, to - from + 1);
  const entries: TimelineEntry[] = [];
  if (total > 0 && limit > 0) {
    const check = new SequenceCheck(true);
    for (const line of timeline.linesFrom(start)) {
      check.note(line.entry, line.blank);
      const entry = line.entry;
      if (!entry || entry.sequence < from) continue;
      if (entry.sequence > to || entries.length >= limit) break;
      entries.push(entry);
    }
  }
  const lastShown = entries[entries.length - 1];
  const next = lastShown && lastShown.sequence < to ? lastShown.sequence + 1 : null;
  return { run_id: runId, entries, total_matched: total, next_from_sequence: next, skipped_lines: 0 };
}

/**
 * Every line from `start` to the end through the filter. From an offset past 0 the skipped part is
 * trusted to hold only lower sequences, so a line out of sequence there sends the query back to 0.
 */
function scanPage(timeline: TimelineFile, runId: string, start: number, query: TimelineQuery, limit: number): TimelinePage {
  const page = new FirstPage(limit + 1); // one extra tells where the next page starts
  const check = new SequenceCheck(start > 0);
  let total = 0;
  let skipped = 0;
  for (const line of timeline.linesFrom(start)) {
    check.note(line.entry, line.blank);
    const entry = line.entry;
    if (!entry) {
      if (!line.blank) skipped += 1;
      continue;
    }
    if (!matches(entry, query)) continue;
    total += 1;
    page.offer(entry);
  }
  const entries = page.entries.slice(0, limit);
  const extra = page.entries[limit];
  return { run_id: runId, entries, total_matched: total, next_from_sequence: extra ? extra.sequence : null, skipped_lines: skipped };
}
