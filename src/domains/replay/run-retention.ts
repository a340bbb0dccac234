// Keeps the newest `max_runs` timelines (by started_at) and records what it removed in
// replay/retention.json, so pruned history is counted and reported, never silently gone.
import { removeFile, writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { withLock } from "../../store/lock.js";
import { listRuns, timelineRunIds, type RunSummary } from "./run-list.js";
import { compareText } from "../../core/compare-text.js";

export interface RetentionRecord {
  pruned_runs: number;
  pruned_entries: number;
  last_pruned_at: string | null;
  /** The most recently pruned runs, newest first (at most 50). */
  recent: { run_id: string; entries: number; started_at: string | null; pruned_at: string }[];
}

export function readRetention(layout: WorkspaceLayout): RetentionRecord {
  const read = readBytesBounded(layout.replayRetentionFile, READ_LIMITS.smallRecord);
  if (read.status === "ok") {
    try {
      const value = JSON.parse(read.bytes.toString("utf8")) as RetentionRecord;
      if (typeof value.pruned_runs === "number" && Array.isArray(value.recent)) return value;
    } catch {
      // unparseable: counted from scratch
    }
  }
  // Missing or unreadable: nothing pruned yet as far as we can tell.
  return { pruned_runs: 0, pruned_entries: 0, last_pruned_at: null, recent: [] };
}

/** Which runs fall outside the newest `maxRuns` (oldest first). Pure. */
function runsToPrune(runs: RunSummary[], maxRuns: number, keep: string): RunSummary[] {
  const ordered = [...runs].sort((a, b) => compareText(a.started_at ?? "", b.started_at ?? "") || compareText(a.run_id, b.run_id));
  const excess = ordered.length - maxRuns;
  if (excess <= 0) return [];
  return ordered.filter((r) => r.run_id !== keep).slice(0, excess);
}

export async function pruneRuns(layout: WorkspaceLayout, maxRuns: number, keep: string, nowIso: string): Promise<RunSummary[]> {
  // Counting files is one readdir; summarising runs reads their metas (or, without one of ours, the
  // whole timeline: the upstream orchestrator's runs), so it is done only when some run must go.
  if (timelineRunIds(layout).length <= maxRuns) return [];
  // A timeline that cannot be read is never removed: the user has to see what it is.
  const victims = runsToPrune((await listRuns(layout)).filter((r) => r.problem === null), maxRuns, keep);
  if (victims.length === 0) return [];
  await withLock(layout.lockFor(layout.replayRetentionFile), async () => {
    const record = readRetention(layout);
    for (const run of victims) {
      await withLock(layout.lockFor(layout.timelineFile(run.run_id)), () => {
        removeFile(layout.timelineFile(run.run_id));
        removeFile(layout.timelineExt(run.run_id));
        removeFile(layout.timelineMeta(run.run_id));
        removeFile(layout.hookSessionState(run.run_id));
      });
      record.pruned_runs += 1;
      record.pruned_entries += run.entries;
      record.last_pruned_at = nowIso;
      record.recent.unshift({ run_id: run.run_id, entries: run.entries, started_at: run.started_at, pruned_at: nowIso });
    }
    record.recent = record.recent.slice(0, 50);
    writeJsonAtomic(layout.replayRetentionFile, record);
  });
  return victims;
}
