// A full read of one timeline that reports everything wrong with it: unreadable lines, gaps,
// duplicates or reordering, a torn tail, and disagreement with its meta. Read-only, streaming.
import fs from "node:fs";
import { readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
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

/** The sequence of a parsed line when it is a timeline entry (the same test as asEntry), else null. */
function entrySequence(value: unknown): number | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as { sequence?: unknown; tool_name?: unknown };
  if (typeof v.sequence !== "number" || !Number.isInteger(v.sequence) || v.sequence < 0 || typeof v.tool_name !== "string") return null;
  return v.sequence;
}

export async function auditTimeline(layout: WorkspaceLayout, runId: string): Promise<TimelineAudit> {
  const file = layout.timelineFile(runId);
  const audit: TimelineAudit = { run_id: runId, entries: 0, unparseable: 0, invalid: 0, torn_tail: false, gaps: 0, first_gap_after: null, out_of_order: 0, first_out_of_order: null, max_sequence: -1, meta: null, meta_problems: [] };
  let expected = 0;
  // Just past the last complete line: the file's size, or where a torn final line starts.
  let endOffset = fs.statSync(file).size;
  // A synchronous pass over raw lines: the doctor reads every line of every timeline, and skipping the
  // async iteration and the normalised entry objects halves the cost.
  for (const line of readLinesSync(file)) {
    if (!line.complete) {
      audit.torn_tail = true;
      endOffset = line.offset;
      break;
    }
    if (line.overlong) {
      audit.unparseable += 1;
      continue;
    }
    if (line.text === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      audit.unparseable += 1;
      continue;
    }
    const sequence = entrySequence(value);
    if (sequence === null) {
      audit.invalid += 1;
      continue;
    }
    audit.entries += 1;
    if (sequence === expected) expected += 1;
    else if (sequence > expected) {
      audit.gaps += 1;
      audit.first_gap_after ??= expected - 1;
      expected = sequence + 1;
    } else {
      audit.out_of_order += 1;
      audit.first_out_of_order ??= sequence;
    }
    if (sequence > audit.max_sequence) audit.max_sequence = sequence;
  }
  const stats = { endOffset, tornTail: audit.torn_tail };
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
