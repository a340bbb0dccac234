// Reads one run's entries from a sequence on, optional keys included, for exporters that resume
// where they stopped. Streams (bounded memory) and seeks through the meta's offset index when it can.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import { readJsonl } from "../../store/jsonl.js";
import { openRegularFile, refusalError } from "../../store/read-text-bounded.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { asEntry, type TimelineEntry } from "./timeline-entry.js";
import { seekOffset } from "./timeline-meta.js";
import { readMetaFile } from "./timeline-scan.js";
import { readExtras } from "./timeline-ext.js";
import { joinExtras } from "./timeline-entry.js";

/** The run's timeline file, checked to be a regular file (never a FIFO or device, which would block). */
export function timelineFileOf(layout: WorkspaceLayout, runId: string): { file: string; size: number } {
  const file = layout.timelineFile(validateId("run_id", runId));
  const opened = openRegularFile(file);
  if (opened.status === "missing") throw new AopError("replay_run_not_found", `no timeline for run '${runId}'`, { details: { run_id: runId }, hint: "list runs with `aop replay --list`" });
  if (opened.status !== "ok") throw refusalError(file, opened);
  fs.closeSync(opened.fd);
  return { file, size: opened.stat.size };
}

/**
 * Entries with `sequence >= fromSequence`, in strictly increasing sequence order: a line whose
 * sequence is not above the previous one (a duplicate, or out of order in a damaged file) is left out,
 * so every sequence is yielded at most once. Lines appended after the read began wait for the next
 * read, as does a line still being written.
 */
export async function* readEntriesFrom(layout: WorkspaceLayout, runId: string, fromSequence: number): AsyncGenerator<TimelineEntry> {
  const { file, size } = timelineFileOf(layout, runId);
  const meta = readMetaFile(layout, runId);
  const clean = meta !== null && meta.file_size <= size && meta.skipped_lines === 0 && meta.sequence_anomalies === 0;
  const fromOffset = clean ? seekOffset(meta, fromSequence) : 0;
  let next = fromSequence;
  // The sidecar's extras (DESIGN §21), read before the lines: an extra appended later waits for the next read.
  const extras = readExtras(layout, runId, { from: fromSequence, to: Number.MAX_SAFE_INTEGER });
  for await (const record of readJsonl(file, { fromOffset })) {
    if (record.offset >= size) break;
    const entry = asEntry(record.value);
    if (!entry || entry.sequence < next) continue;
    next = entry.sequence + 1;
    yield joinExtras(entry, extras.get(entry.sequence));
  }
}
