// Which runs an export covers: the named ones (each must have a timeline), or every run with
// activity since a time.
import { AopError } from "../../core/errors.js";
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

/** Run ids in export order (oldest activity first for --all). Named runs must exist. */
export async function selectRuns(layout: WorkspaceLayout, selection: RunSelection): Promise<string[]> {
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
    return ids;
  }
  const since = selection.since === null ? null : Date.parse(selection.since);
  const runs = await listRuns(layout);
  return runs
    .filter((r) => since === null || (r.last_entry_at !== null && Date.parse(r.last_entry_at) >= since))
    .reverse()
    .map((r) => r.run_id);
}
