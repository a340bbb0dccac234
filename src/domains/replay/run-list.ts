// Lists the runs that have a timeline, with counts and times from the meta (or the file when absent).
// A timeline that cannot be read (a FIFO, a link out of the workspace, …) is listed with its problem and
// no counts: one bad run never keeps the others from being listed, reported or exported (DESIGN §23).
import fs from "node:fs";
import type { WorkspaceLayout } from "../../store/layout.js";
import { isAopError } from "../../core/errors.js";
import { idProblem } from "../../core/ids.js";
import { openRegularFile, refusalProblem } from "../../store/read-text-bounded.js";
import { catchUp, trustedMeta } from "./timeline-scan.js";
import { compareText } from "../../core/compare-text.js";
import type { RunSummary } from "../../catalog/run-summary.js";

export type { RunSummary };

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
    // The store's open: a FIFO, device, folder or link out of the workspace is refused without blocking.
    const opened = openRegularFile(file);
    if (opened.status === "missing") continue;
    if (opened.status !== "ok") {
      out.push(unreadRun(runId, refusalProblem(opened)));
      continue;
    }
    fs.closeSync(opened.fd);
    try {
      const { meta } = await catchUp(file, runId, trustedMeta(layout, runId), opened.stat.size);
      out.push({
        run_id: runId,
        entries: meta.entry_count,
        errors: meta.error_count,
        started_at: meta.started_at,
        last_entry_at: meta.last_entry_at,
        dropped_entries: meta.dropped_entries,
        skipped_lines: meta.skipped_lines,
        problem: null,
      });
    } catch (err) {
      // Swapped for a special file or a link between the check and the read.
      if (!isAopError(err)) throw err;
      const reason = typeof err.details.reason === "string" ? err.details.reason : err.message;
      out.push(unreadRun(runId, `${reason} [${err.code}]`));
    }
  }
  return out.sort((a, b) => compareText(b.last_entry_at ?? "", a.last_entry_at ?? "") || compareText(a.run_id, b.run_id));
}

function unreadRun(runId: string, problem: string): RunSummary {
  return { run_id: runId, entries: 0, errors: 0, started_at: null, last_entry_at: null, dropped_entries: 0, skipped_lines: 0, problem };
}
