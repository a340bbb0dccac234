// Handoff: the timeline entry of a call whose client records its session itself. `aop mcp` serving
// Claude Code leaves each call's finished entry under Claude's `tool_use_id`; the session's PostToolUse
// hook adopts it into run `claude-<session>` (with the subagent, if any), so the call is recorded once,
// with the kernel's fields, where the session's replay shows it. An entry nobody adopts within
// HANDOFF_GRACE_MS (no hooks installed, a hook stopped by its budget) is filed in the run the kernel
// resolved for it by the next sweep. See docs/agents.md.
import fs from "node:fs";
import path from "node:path";
import { nodeCrypto } from "../../core/hash.js";
import { removeFile, writeJsonAtomic } from "../../store/atomic-write.js";
import { linkEscape } from "../../store/containment.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import { asEntry, type EntryWithoutSequence } from "./timeline-entry.js";

export const HANDOFF_GRACE_MS = 30_000;
const MAX_HANDOFF_BYTES = 64 * 1024;
const CLAIMED = ".claimed-";

export function handOffEntry(layout: WorkspaceLayout, toolUseId: string, entry: EntryWithoutSequence): void {
  writeJsonAtomic(layout.timelineHandoffFile(toolUseId), entry);
}

/** Renames the file to a name only this process knows (so no one else takes it); null if someone did first. */
function claim(file: string): string | null {
  if (linkEscape(path.dirname(file)) !== null) return null; // a folder that leads out of the workspace is not ours to empty
  const base = file.includes(CLAIMED) ? file.slice(0, file.indexOf(CLAIMED)) : file;
  const claimed = `${base}${CLAIMED}${process.pid}-${nodeCrypto().randomBytes(3).toString("hex")}`;
  try {
    fs.renameSync(file, claimed);
  } catch {
    return null;
  }
  // A claim's age says how long its holder has had it: a claim older than the grace was abandoned.
  const now = new Date();
  try {
    fs.utimesSync(claimed, now, now);
  } catch {
    // the age then stays the entry's; at worst it is filed by a sweep instead of adopted
  }
  return claimed;
}

function readClaimed(claimed: string): EntryWithoutSequence | null {
  const read = readTextBounded(claimed, MAX_HANDOFF_BYTES);
  if (read.status !== "ok" || read.truncated || read.binary) return null;
  try {
    const entry = asEntry({ ...(JSON.parse(read.text) as Record<string, unknown>), sequence: 0 });
    if (!entry || entry.run_id === "") return null;
    const { sequence: _sequence, ...rest } = entry;
    return rest;
  } catch {
    return null;
  }
}

export interface Adopted {
  entry: EntryWithoutSequence;
  /** Call once the entry is safely elsewhere (spooled): removes the claimed file. */
  done(): void;
}

/** The entry left for `toolUseId`, now owned by the caller; null when there is none (or it is taken). */
export function adoptHandoff(layout: WorkspaceLayout, toolUseId: string): Adopted | null {
  let file: string;
  try {
    file = layout.timelineHandoffFile(toolUseId);
  } catch {
    return null; // not an id we could have written
  }
  const claimed = claim(file);
  if (!claimed) return null;
  const entry = readClaimed(claimed);
  if (!entry) {
    removeFile(claimed);
    return null;
  }
  return { entry, done: () => removeFile(claimed) };
}

/** Entries waiting for their session's hook (the doctor reports a backlog). */
export function handoffBacklog(layout: WorkspaceLayout, nowMs = Date.now(), graceMs = HANDOFF_GRACE_MS): { waiting: number; overdue: number } {
  let waiting = 0;
  let overdue = 0;
  for (const name of handoffNames(layout)) {
    waiting++;
    const stat = fs.statSync(path.join(layout.timelineHandoffDir, name), { throwIfNoEntry: false });
    if (stat && nowMs - stat.mtimeMs > graceMs) overdue++;
  }
  return { waiting, overdue };
}

function handoffNames(layout: WorkspaceLayout): string[] {
  try {
    return fs.readdirSync(layout.timelineHandoffDir).filter((n) => !n.startsWith(".") && (n.endsWith(".json") || n.includes(CLAIMED)));
  } catch {
    return [];
  }
}

/**
 * Files every entry older than the grace (and every abandoned claim) in its own run through `append`.
 * Returns how many were filed and how many were unreadable (removed: nothing in them could be filed).
 */
export async function fileStaleHandoffs(
  layout: WorkspaceLayout,
  append: (entry: EntryWithoutSequence) => Promise<void>,
  nowMs = Date.now(),
  graceMs = HANDOFF_GRACE_MS,
): Promise<{ filed: number; unreadable: number }> {
  let filed = 0;
  let unreadable = 0;
  for (const name of handoffNames(layout)) {
    const file = path.join(layout.timelineHandoffDir, name);
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat || !stat.isFile() || nowMs - stat.mtimeMs <= graceMs) continue;
    const claimed = claim(file);
    if (!claimed) continue;
    const entry = readClaimed(claimed);
    if (entry) {
      await append(entry);
      filed++;
    } else unreadable++;
    removeFile(claimed);
  }
  return { filed, unreadable };
}
