// The spool: entries written without the run's lock, one small file each, appended to the timeline
// (in name order: completion time, then process) by the next writer that holds the lock. A process that
// may be stopped while it waits for the lock (the Claude Code hook has a one-second budget, and finds
// the lock held) spools first, so its entry survives. Delivery is at-least-once: a writer killed between appending an entry and
// deleting its spool file appends it again next time (same operation_id, new sequence).
import fs from "node:fs";
import { writeJsonAtomic } from "../../store/atomic-write.js";
import { assertContained } from "../../store/containment.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { asEntry, type EntryWithoutSequence } from "./timeline-entry.js";

// Orders one process's spooled entries when they share a millisecond.
let spooledHere = 0;

export function spoolEntry(layout: WorkspaceLayout, entry: EntryWithoutSequence): string {
  const at = String(Date.parse(entry.ts) || Date.now()).padStart(15, "0");
  // The last part tells apart hosts sharing the folder with equal pids (not a secret: no node:crypto).
  const name = `${at}-${process.pid}-${String(spooledHere++).padStart(8, "0")}-${Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, "0")}.json`;
  const file = layout.timelineSpoolFile(entry.run_id, name);
  for (let attempt = 1; ; attempt++) {
    try {
      // Atomic, not fsynced: the entry's home, the timeline, is appended without fsync too, and a
      // stopped process (what the spool is for) loses nothing a rename has made visible.
      writeJsonAtomic(file, entry, { durable: false });
      return file;
    } catch (err) {
      // A writer that drained the spool may remove its folder between our mkdir and our create: again.
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt === 3) throw err;
    }
  }
}

/** A drained spool leaves no folder behind; one that received a new entry meanwhile stays. */
export function removeSpoolDirIfEmpty(layout: WorkspaceLayout, runId: string): void {
  try {
    fs.rmdirSync(layout.timelineSpoolDir(runId));
  } catch {
    // not empty (a hook spooled meanwhile) or already gone
  }
}

export interface Spooled {
  file: string;
  entry: EntryWithoutSequence | null;
}

/** Spooled entries of a run in append order; an unreadable file comes back with `entry: null`. */
export function readSpool(layout: WorkspaceLayout, runId: string): Spooled[] {
  const dir = layout.timelineSpoolDir(runId);
  assertContained(dir); // its files are removed once appended: never through a link out of the workspace
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".json") && !n.startsWith("."))
    .sort()
    .map((name) => {
      const file = layout.timelineSpoolFile(runId, name);
      const read = readBytesBounded(file, READ_LIMITS.spoolEntry);
      if (read.status !== "ok") return { file, entry: null };
      try {
        const value = JSON.parse(read.bytes.toString("utf8")) as Record<string, unknown>;
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
