// Lists the runs that have a timeline, with counts and times from the meta (or the file when absent).
import fs from "node:fs";
import type { WorkspaceLayout } from "../../store/layout.js";
import { idProblem } from "../../core/ids.js";
import { catchUp, trustedMeta } from "./timeline-scan.js";

export interface RunSummary {
  run_id: string;
  entries: number;
  errors: number;
  started_at: string | null;
  last_entry_at: string | null;
  dropped_entries: number;
  skipped_lines: number;
}

const SUFFIX = ".timeline.jsonl";

export function timelineRunIds(layout: WorkspaceLayout): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(layout.replayDir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith(SUFFIX)).map((n) => n.slice(0, -SUFFIX.length)).filter((id) => idProblem(id) === null);
}

/**
 * Summaries of every run, newest activity first. Counts come from our meta when it matches the file
 * (brought up to date in memory only), else from reading the file.
 */
export async function listRuns(layout: WorkspaceLayout): Promise<RunSummary[]> {
  const out: RunSummary[] = [];
  for (const runId of timelineRunIds(layout)) {
    const file = layout.timelineFile(runId);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) continue;
    const { meta } = await catchUp(file, runId, trustedMeta(layout, runId), stat.size);
    out.push({
      run_id: runId,
      entries: meta.entry_count,
      errors: meta.error_count,
      started_at: meta.started_at,
      last_entry_at: meta.last_entry_at,
      dropped_entries: meta.dropped_entries,
      skipped_lines: meta.skipped_lines,
    });
  }
  return out.sort((a, b) => (b.last_entry_at ?? "").localeCompare(a.last_entry_at ?? "") || a.run_id.localeCompare(b.run_id));
}
