// A full read of one timeline that reports everything wrong with it: unreadable lines, gaps,
// duplicates or reordering, a torn tail, disagreement with its meta (ours, or one with only the
// contract's five fields), and how many entries are in aop's older line shape (timeline-shape.ts).
// Entry timestamps are not compared: the upstream orchestrator allocates sequences in lock order, so
// its `ts` need not grow with them. Read-only, streaming.
import fs from "node:fs";
import { readLinesSync } from "../../store/jsonl.js";
import { HOSTNAME, processIsAlive, readHolder } from "../../store/lock-holder.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { entrySequence } from "./timeline-entry.js";
import { lineSequence, NOT_ENTRY, NOT_JSON, UNSURE } from "./timeline-line-check.js";
import { readMetaValue } from "./timeline-scan.js";
import { isOldShapeLine } from "./timeline-shape.js";
import { parseContractMeta, parseMeta, type TimelineMeta } from "./timeline-meta.js";

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
  /** Entries in the shape aop wrote before DESIGN §21, which the upstream orchestrator's replay refuses (DRIFT_013). */
  old_shape: number;
  meta: TimelineMeta | null;
  meta_problems: string[];
}

export async function auditTimeline(layout: WorkspaceLayout, runId: string): Promise<TimelineAudit> {
  const file = layout.timelineFile(runId);
  const audit: TimelineAudit = { run_id: runId, entries: 0, unparseable: 0, invalid: 0, torn_tail: false, gaps: 0, first_gap_after: null, out_of_order: 0, first_out_of_order: null, max_sequence: -1, old_shape: 0, meta: null, meta_problems: [] };
  let expected = 0;
  // The meta is read before the file and again after it: a writer appends its line, then rewrites the
  // meta, so a meta read first never claims more than the file then holds unless the file lost lines; a
  // meta that changed meanwhile means a writer was at work, which is no corruption (docs/replay.md).
  const before = readMetaValue(layout, runId);
  // Just past the last complete line: the file's size, or where a torn final line starts.
  let endOffset = fs.statSync(file).size;
  // A synchronous pass over raw lines: the doctor reads every line of every timeline, and skipping the
  // async iteration and the normalised entry objects halves the cost.
  for (const line of readLinesSync(file, { raw: true })) {
    if (!line.complete) {
      audit.torn_tail = true;
      endOffset = line.offset;
      break;
    }
    if (line.overlong) {
      audit.unparseable += 1;
      continue;
    }
    const bytes = line.bytes!;
    if (line.from === line.to) continue;
    // The bytes read as JSON.parse would (timeline-line-check.ts), parsed only when that is unsure: a
    // measured budget keeps it (docs/performance.md, the fifth round).
    let sequence: number | null = lineSequence(bytes, line.from!, line.to!);
    if (sequence === NOT_JSON) {
      audit.unparseable += 1;
      continue;
    }
    if (sequence === UNSURE) {
      try {
        sequence = entrySequence(JSON.parse(bytes.toString("utf8", line.from, line.to)));
      } catch {
        audit.unparseable += 1;
        continue;
      }
    } else if (sequence === NOT_ENTRY) sequence = null;
    if (sequence === null) {
      audit.invalid += 1;
      continue;
    }
    audit.entries += 1;
    if (isOldShapeLine(bytes, line.from!, line.to!)) audit.old_shape += 1;
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
  // Whether a writer holds the run's lock is asked before the meta is read again: a writer appends its
  // line and writes its meta under the lock, so a line the pass read whose meta the second read misses
  // was written by a writer that still held the lock here (asked after that read, it may be gone).
  const held = writerHoldsLock(layout, runId);
  const value = readMetaValue(layout, runId);
  if (value.exists) {
    if (!value.ok) audit.meta_problems.push(`its meta file ${value.problem} (the next write rebuilds it from the timeline)`);
    else {
      audit.meta = parseMeta(value.value, runId);
      const writing = !before.exists || !before.ok || JSON.stringify(before.value) !== JSON.stringify(value.value) || held;
      audit.meta_problems.push(...(writing ? truncation(before, audit, endOffset, runId) : metaProblems(value.value, audit, endOffset, runId)));
    }
  }
  return audit;
}

/** A live process on this host holds the run's lock: it may have appended a line whose meta is not written yet. */
function writerHoldsLock(layout: WorkspaceLayout, runId: string): boolean {
  const info = readHolder(layout.lockFor(layout.timelineFile(runId)));
  if (info === null) return false;
  if (info.holder === null) return true; // being created, or unreadable: judged as held
  return info.holder.hostname !== HOSTNAME || processIsAlive(info.holder.pid);
}

/** While a writer is at work, only what no append can explain: the meta read first claiming more than the file holds. */
function truncation(before: ReturnType<typeof readMetaValue>, audit: TimelineAudit, endOffset: number, runId: string): string[] {
  if (!before.exists || !before.ok) return [];
  const problems = metaProblems(before.value, audit, endOffset, runId);
  return problems.filter((p) => p.endsWith("(truncated?)"));
}

/**
 * How a meta disagrees with the file. Only the contract's fields are compared (`run_id`,
 * `sequence_head`, `entry_count`; never its times, which upstream stamps when it writes the meta), plus
 * `file_size` when the meta is ours.
 */
function metaProblems(value: unknown, audit: TimelineAudit, endOffset: number, runId: string): string[] {
  const contract = parseContractMeta(value);
  if (!contract) return ["its meta file does not hold run_id, sequence_head and entry_count (the next write rebuilds it from the timeline)"];
  if (contract.run_id !== runId) return [`its meta names run ${contract.run_id}`];
  const ours = parseMeta(value, runId);
  const claims = `its meta claims ${contract.entry_count} entries up to sequence ${contract.sequence_head}`;
  if ((ours && ours.file_size > endOffset) || contract.entry_count > audit.entries || contract.sequence_head > audit.max_sequence) {
    return [`${claims}, but the file has ${audit.entries} (truncated?)`];
  }
  if ((ours && ours.file_size < endOffset) || (!ours && contract.entry_count < audit.entries)) {
    return [`its meta is behind the file (${contract.entry_count} of ${audit.entries} entries; a writer stopped before updating it — the next write repairs it)`];
  }
  if (contract.sequence_head !== audit.max_sequence || contract.entry_count !== audit.entries) {
    return [`its meta (sequence_head ${contract.sequence_head}, ${contract.entry_count} entries) disagrees with the file (sequence ${audit.max_sequence}, ${audit.entries} entries)`];
  }
  return [];
}
