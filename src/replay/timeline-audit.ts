// A full read of one timeline that reports everything wrong with it: unreadable lines, gaps,
// duplicates or reordering, a torn tail, and disagreement with its meta. Read-only, streaming.
import fs from "node:fs";
import { readJsonl, type JsonlReadStats } from "../store/jsonl.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { asEntry } from "./timeline-entry.js";
import { readMetaFile } from "./timeline-scan.js";
import type { TimelineMeta } from "./timeline-meta.js";

export interface TimelineAudit {
  run_id: string;
  entries: number;
  unparseable: number;
  invalid: number;
  torn_tail: boolean;
  gaps: number;
  first_gap_after: number | null;
  out_of_order: number;
  first_out_of_order: number | null;
  max_sequence: number;
  meta: TimelineMeta | null;
  meta_problems: string[];
}

export async function auditTimeline(layout: WorkspaceLayout, runId: string): Promise<TimelineAudit> {
  const file = layout.timelineFile(runId);
  const stats: JsonlReadStats = { lines: 0, skipped: 0, tornTail: false, endOffset: 0 };
  const audit: TimelineAudit = { run_id: runId, entries: 0, unparseable: 0, invalid: 0, torn_tail: false, gaps: 0, first_gap_after: null, out_of_order: 0, first_out_of_order: null, max_sequence: -1, meta: null, meta_problems: [] };
  let expected = 0;
  for await (const record of readJsonl(file, {}, stats)) {
    const entry = asEntry(record.value);
    if (!entry) {
      audit.invalid += 1;
      continue;
    }
    audit.entries += 1;
    if (entry.sequence === expected) expected += 1;
    else if (entry.sequence > expected) {
      audit.gaps += 1;
      audit.first_gap_after ??= expected - 1;
      expected = entry.sequence + 1;
    } else {
      audit.out_of_order += 1;
      audit.first_out_of_order ??= entry.sequence;
    }
    if (entry.sequence > audit.max_sequence) audit.max_sequence = entry.sequence;
  }
  audit.torn_tail = stats.tornTail;
  audit.unparseable = stats.skipped - (stats.tornTail ? 1 : 0);
  const meta = readMetaFile(layout, runId);
  audit.meta = meta;
  if (fs.existsSync(layout.timelineMeta(runId)) && !meta) audit.meta_problems.push("its meta file is unreadable");
  if (meta) {
    if (meta.file_size > stats.endOffset || meta.entry_count > audit.entries) {
      audit.meta_problems.push(`its meta claims ${meta.entry_count} entries up to sequence ${meta.sequence_head}, but the file has ${audit.entries} (truncated?)`);
    } else if (meta.file_size < stats.endOffset) {
      audit.meta_problems.push(`its meta is behind the file (${meta.entry_count} of ${audit.entries} entries; a writer stopped before updating it — the next write repairs it)`);
    } else if (meta.sequence_head !== audit.max_sequence || meta.entry_count !== audit.entries) {
      audit.meta_problems.push(`its meta (sequence_head ${meta.sequence_head}, ${meta.entry_count} entries) disagrees with the file (sequence ${audit.max_sequence}, ${audit.entries} entries)`);
    }
  }
  return audit;
}
