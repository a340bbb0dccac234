// Which runs an export covers: the named ones (each must have a timeline), or every run with
// activity since a time. A run whose timeline cannot be read is skipped with its problem, never
// allowed to stop the export of the others (DESIGN §23).
import { AopError, isAopError } from "../../core/errors.js";
import { isIsoUtc } from "../../core/instant.js";
import { validateId } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { listRuns, timelineRunIds } from "../replay/index.js";

export type RunSelection = { runIds: string[] } | { all: true; since: string | null };

export function parseSince(value: string): string {
  const shown = value.slice(0, 40);
  if (!isIsoUtc(value)) throw new AopError("usage_error", `--since must be an ISO 8601 UTC time such as 2026-05-01T00:00:00Z (got '${shown}')`);
  return new Date(Date.parse(value)).toISOString();
}

/** A run left out of an export, and why (`… [code]`). */
export interface SkippedRun {
  run_id: string;
  problem: string;
}

export interface SelectedRuns {
  /** In export order. */
  runIds: string[];
  /** Runs whose timeline cannot be read (known before exporting; more may be found while reading). */
  skipped: SkippedRun[];
}

// What a timeline that cannot be read fails with: the run is skipped, the export goes on. Any other
// failure (the endpoint, a cursor, the export folder) still stops the export with its own error.
const UNREADABLE = new Set(["not_a_regular_file", "path_outside_workspace", "file_too_large", "permission_denied", "io_error"]);

/** The skip note for a run whose export failed because its timeline file could not be read, else null. */
export function unreadableRun(layout: WorkspaceLayout, runId: string, err: unknown): SkippedRun | null {
  if (!isAopError(err) || !UNREADABLE.has(err.code) || err.details.path !== layout.timelineFile(runId)) return null;
  const reason = typeof err.details.reason === "string" ? `timeline file ${err.details.reason}` : err.message;
  return { run_id: runId, problem: `${reason} [${err.code}]` };
}

/** Run ids in export order (oldest activity first for --all). Named runs must exist. */
export async function selectRuns(layout: WorkspaceLayout, selection: RunSelection): Promise<SelectedRuns> {
  if ("runIds" in selection) {
    const known = new Set(timelineRunIds(layout));
    const ids = [...new Set(selection.runIds.map((id) => validateId("run_id", id)))];
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      const some = [...known].slice(0, 5);
      throw new AopError("replay_run_not_found", `no timeline for run${missing.length === 1 ? "" : "s"} ${missing.map((m) => `'${m}'`).join(", ")}`, {
        details: { run_ids: missing },
        hint: some.length > 0 ? `runs here: ${some.join(", ")} (all: aop replay --list)` : "no run has a timeline in this workspace yet",
      });
    }
    return { runIds: ids, skipped: [] };
  }
  const since = selection.since === null ? null : Date.parse(selection.since);
  const runs = await listRuns(layout);
  return {
    runIds: runs
      .filter((r) => r.problem === null && (since === null || (r.last_entry_at !== null && Date.parse(r.last_entry_at) >= since)))
      .reverse()
      .map((r) => r.run_id),
    // Their times are unknown, so --since cannot rule them out: each is named.
    skipped: runs.filter((r) => r.problem !== null).map((r) => ({ run_id: r.run_id, problem: `timeline file ${r.problem!}` })),
  };
}
