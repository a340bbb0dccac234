// The spool: entries written without the run's lock, one small file each, appended to the timeline
// (in name order: completion time, then process) by the next writer that holds the lock. A process that
// may be stopped before it gets the lock (the Claude Code hook has a one-second budget) spools first,
// so its entry survives. Delivery is at-least-once: a writer killed between appending an entry and
// deleting its spool file appends it again next time (same operation_id, new sequence).
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { asEntry, type EntryWithoutSequence } from "./timeline-entry.js";

// Orders one process's spooled entries when they share a millisecond.
let spooledHere = 0;

export function spoolEntry(layout: WorkspaceLayout, entry: EntryWithoutSequence): string {
  const at = String(Date.parse(entry.ts) || Date.now()).padStart(15, "0");
  const name = `${at}-${process.pid}-${String(spooledHere++).padStart(8, "0")}-${randomBytes(3).toString("hex")}.json`;
  const file = layout.timelineSpoolFile(entry.run_id, name);
  writeJsonAtomic(file, entry);
  return file;
}

export interface Spooled {
  file: string;
  entry: EntryWithoutSequence | null;
}

/** Spooled entries of a run in append order; an unreadable file comes back with `entry: null`. */
export function readSpool(layout: WorkspaceLayout, runId: string): Spooled[] {
  let names: string[];
  try {
    names = fs.readdirSync(layout.timelineSpoolDir(runId));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".json") && !n.startsWith("."))
    .sort()
    .map((name) => {
      const file = layout.timelineSpoolFile(runId, name);
      try {
        const value = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
        const entry = asEntry({ ...value, sequence: 0 });
        if (!entry || entry.run_id !== runId) return { file, entry: null };
        const { sequence: _sequence, ...rest } = entry;
        return { file, entry: rest };
      } catch {
        return { file, entry: null };
      }
    });
}

/** How many entries wait in each run's spool (for the doctor). */
export function spoolBacklog(layout: WorkspaceLayout, runId: string): number {
  try {
    return fs.readdirSync(layout.timelineSpoolDir(runId)).filter((n) => n.endsWith(".json") && !n.startsWith(".")).length;
  } catch {
    return 0;
  }
}
