// Step log files of one run, `logs/<epoch_ms>-<mode>-<step>.log`. All of a run's names are reserved
// (created empty, exclusively) before any step starts, so two runs starting in the same millisecond never
// share a log: the later one moves to the next free millisecond.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import { ensureDir, ioFailure, removeFile } from "../../store/atomic-write.js";
import { noteScratch } from "../../store/effect-journal.js";
import type { WorkspaceLayout } from "../../store/layout.js";

const MAX_EPOCH_BUMPS = 10_000;

export interface ReservedLogs {
  epochMs: number;
  /** Step name → absolute log path. */
  files: Map<string, string>;
}

// O_EXCL never follows a link at the name, and ensureDir checked the folder.
function createExclusive(file: string): boolean {
  try {
    fs.closeSync(fs.openSync(file, "wx", 0o644));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw ioFailure(err, file);
  }
}

export function reserveRunLogs(layout: WorkspaceLayout, featureId: string, mode: string, stepNames: readonly string[], startMs: number): ReservedLogs {
  ensureDir(layout.featureLogsDir(featureId));
  for (let epochMs = startMs; epochMs < startMs + MAX_EPOCH_BUMPS; epochMs++) {
    const files = new Map<string, string>();
    let clash = false;
    for (const name of stepNames) {
      const file = layout.stepLog(featureId, epochMs, mode, name);
      if (!createExclusive(file)) {
        clash = true;
        break;
      }
      files.set(name, file);
    }
    if (!clash) {
      // Until evidence names them, a run's logs are its scratch: a retry of a killed run removes them.
      for (const file of files.values()) noteScratch(file);
      return { epochMs, files };
    }
    for (const file of files.values()) removeFile(file);
  }
  throw new AopError("io_error", `could not reserve log files for mode '${mode}' near ${startMs}`);
}

/** A skipped step produced no output: its reserved, still empty log is removed. */
export function releaseLog(file: string): void {
  removeFile(file);
}
