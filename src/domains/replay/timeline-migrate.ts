// `aop migrate` for timelines (DESIGN §21, docs/replay.md "Migrating"): rewrites a run whose lines are in
// aop's older shape into the seed's lines plus the run's sidecar, under the run's lock, keeping the old
// files as a backup. Lines that are not entries (torn, unparseable, over the bound) are kept as they are:
// they are evidence, and readers skip them. Both new files are complete before either replaces an old
// one; a crash between the two renames leaves the new sidecar beside the old lines, whose extras are the
// same — a second run finishes the job. A run already in the seed's shape is not touched (idempotent).
import fs from "node:fs";
import path from "node:path";
import { ensureDir, fsyncDir, openForWriting, removeFile, writeAll } from "../../store/atomic-write.js";
import { assertContained } from "../../store/containment.js";
import { readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { defaultFileMode } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { asEntry, extrasOf, serializeEntry, serializeExt } from "./timeline-entry.js";
import { countOldShapeLines } from "./timeline-shape.js";
import { readExtras } from "./timeline-ext.js";
import type { TimelineExt } from "./timeline-entry.js";

export interface TimelineMigration {
  run_id: string;
  /** Lines in the old shape found (and, unless a dry run, rewritten). */
  old_lines: number;
  /** Entries that now have a sidecar line from the migration. */
  extras_moved: number;
  /** Workspace-relative backup files (empty for a dry run or a run with nothing to do). */
  backups: string[];
}

/** The backup folder for migrated files: `.aop/runtime/replay/backup/<stamp>/`. */
export function migrationBackupDir(layout: WorkspaceLayout, stamp: string): string {
  return path.join(layout.replayDir, "backup", stamp);
}

export async function migrateTimeline(layout: WorkspaceLayout, runId: string, options: { dryRun: boolean; stamp: string }): Promise<TimelineMigration> {
  const file = layout.timelineFile(runId);
  const extFile = layout.timelineExt(runId);
  const result: TimelineMigration = { run_id: runId, old_lines: 0, extras_moved: 0, backups: [] };
  for (const f of [file, extFile]) assertContained(f);
  return withLock(layout.lockFor(file), () => {
    result.old_lines = countOldShapeLines(layout, runId);
    if (result.old_lines === 0 || options.dryRun) {
      if (options.dryRun) result.extras_moved = countExtras(file);
      return result;
    }
    const tmp = `${file}.migrate-${process.pid}.tmp`;
    const extTmp = `${extFile}.migrate-${process.pid}.tmp`;
    const out = openForWriting(tmp, "truncate", defaultFileMode(file));
    const extOut = openForWriting(extTmp, "truncate", defaultFileMode(extFile));
    try {
      // The sidecar's existing extras (of lines already in the new shape), merged in sequence order below.
      const existing = readExtras(layout, runId);
      for (const line of readLinesSync(file)) {
        const kept = line.overlong ? null : line.text;
        const entry = kept !== null && line.complete ? entryOf(kept) : null;
        if (!entry) {
          // Not an entry: kept byte for byte where it can be (an over-long line is lost to every reader already).
          if (kept !== null && kept !== "") writeAll(out, kept + (line.complete ? "\n" : ""), tmp);
          continue;
        }
        const { sequence, ...rest } = entry;
        writeAll(out, serializeEntry(rest, sequence), tmp);
        const inline = extrasOf(rest);
        const { sequence: _s, ...prior } = existing.get(sequence) ?? {};
        const extras = extrasOf({ ...rest, ext: { ...(inline ?? {}), ...(prior as TimelineExt) } });
        if (extras) writeAll(extOut, serializeExt(sequence, extras), extTmp);
        if (inline) result.extras_moved += 1;
      }
      fs.fsyncSync(out);
      fs.fsyncSync(extOut);
    } catch (err) {
      fs.closeSync(out);
      fs.closeSync(extOut);
      removeFile(tmp);
      removeFile(extTmp);
      throw err;
    }
    fs.closeSync(out);
    fs.closeSync(extOut);
    const backupDir = migrationBackupDir(layout, options.stamp);
    ensureDir(backupDir);
    for (const f of [file, extFile]) {
      if (!fs.existsSync(f)) continue;
      const backup = path.join(backupDir, path.basename(f));
      fs.copyFileSync(f, backup, fs.constants.COPYFILE_EXCL);
      result.backups.push(layout.relative(backup));
    }
    fsyncDir(backupDir);
    fs.renameSync(extTmp, extFile);
    fs.renameSync(tmp, file);
    fsyncDir(layout.replayDir);
    // The meta is a cache of the old file (sizes, offsets): the next writer or reader rebuilds it.
    removeFile(layout.timelineMeta(runId));
    return result;
  });
}

function entryOf(text: string): ReturnType<typeof asEntry> {
  try {
    return asEntry(JSON.parse(text));
  } catch {
    return null;
  }
}

/** How many entries carry extras inside their line (what a migration would move). */
function countExtras(file: string): number {
  let n = 0;
  for (const line of readLinesSync(file)) {
    if (!line.complete || line.overlong || line.text === "") continue;
    const entry = entryOf(line.text);
    if (entry) {
      const { sequence: _s, ...rest } = entry;
      if (extrasOf(rest)) n += 1;
    }
  }
  return n;
}
