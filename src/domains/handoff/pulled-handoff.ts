// The handoff notes that came with pulled workspaces (`.aop/remote/*/<id>/.aop/runtime/handoff.json`):
// the newest of one origin for `aop resume --from`, and whether one is newer than this workspace's own
// work for the SessionStart hook, which reads only the pulled folders (no network: docs/handoff.md).
import { isAopError } from "../../core/errors.js";
import { instantOf } from "../../core/instant.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { listOrigins, type Origin } from "../origins/index.js";
import { listRuns } from "../replay/index.js";
import { readHandoffNote, type HandoffNote } from "./handoff-note.js";

export interface PulledHandoff {
  origin: Origin;
  note: HandoffNote;
}

/** Each origin's note (skipping, with a warning, one that cannot be used), newest first. */
export function pulledHandoffs(local: WorkspaceLayout, origins: readonly Origin[], warn: (m: string) => void): PulledHandoff[] {
  const out: PulledHandoff[] = [];
  for (const origin of origins) {
    try {
      const note = readHandoffNote(origin.layout.handoffFile, local.relative(origin.layout.handoffFile));
      if (note === null) continue;
      // A note naming another workspace is not this origin's.
      if (note.workspace_id !== origin.workspace_id) {
        warn(`${local.relative(origin.layout.handoffFile)} names workspace ${note.workspace_id.slice(0, 8)}…, not its origin's; skipped`);
        continue;
      }
      out.push({ origin, note });
    } catch (err) {
      if (!isAopError(err)) throw err;
      warn(`${err.message}; skipped`);
    }
  }
  return out.sort((a, b) => instantOf(b.note.created_at) - instantOf(a.note.created_at));
}

/**
 * The newest pulled note when it is newer than both this workspace's own note and its timeline's last
 * entry (the work moved elsewhere since this machine last touched it); else null.
 */
export async function newerPulledHandoff(local: WorkspaceLayout, warn: (m: string) => void): Promise<PulledHandoff | null> {
  const listing = listOrigins(local);
  const newest = pulledHandoffs(local, listing.origins, warn)[0];
  if (!newest) return null;
  const at = instantOf(newest.note.created_at);
  let own: HandoffNote | null = null;
  try {
    own = readHandoffNote(local.handoffFile, local.relative(local.handoffFile));
  } catch {
    // a broken local note does not hide the pulled one
  }
  if (own !== null && instantOf(own.created_at) >= at) return null;
  const lastLocal = (await listRuns(local)).find((r) => r.last_entry_at !== null)?.last_entry_at;
  if (lastLocal && instantOf(lastLocal) >= at) return null;
  return newest;
}
