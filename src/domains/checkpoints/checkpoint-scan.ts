// Reads and validates a whole checkpoints folder (or one skill's file): the input of every command.
import type { WorkspaceLayout } from "../../store/layout.js";
import { entryReader, listCheckpointEntries, readCheckpointFile, type LoadedFile } from "./checkpoint-store.js";
import { skillFromFileName, type CheckedCheckpoint } from "./checkpoint-types.js";
import type { CheckpointValidator } from "./validate-checkpoint.js";

export interface CheckpointScan {
  /** Absolute path of the folder. */
  dir: string;
  exists: boolean;
  files: CheckedCheckpoint[];
}

export function checkLoadedFile(loaded: LoadedFile, validate: CheckpointValidator, now: number, view = true): CheckedCheckpoint {
  if (!loaded.ok) {
    return { file: loaded.name, path: loaded.path, skill: skillFromFileName(loaded.name), errors: [loaded.problem], warnings: [], hints: [], document: undefined, checkpoint: null };
  }
  const outcome = validate({ fileName: loaded.name, text: loaded.text, sizeBytes: loaded.sizeBytes, now, view });
  return { file: outcome.file, path: loaded.path, skill: outcome.skill, errors: outcome.errors, warnings: outcome.warnings, hints: outcome.hints, document: outcome.document, checkpoint: outcome.checkpoint };
}

/**
 * Reads and validates file by file, so each text is garbage as soon as it is checked. With
 * `keepDocuments: false` (validate) the parsed documents are dropped too, which keeps a thousand-file
 * scan out of the garbage collector's way.
 */
export function scanCheckpoints(layout: WorkspaceLayout, validate: CheckpointValidator, now: number, options: { keepDocuments?: boolean } = {}): CheckpointScan {
  const entries = listCheckpointEntries(layout);
  if (entries === null) return { dir: layout.checkpointsDir, exists: false, files: [] };
  const read = entryReader(layout);
  const keep = options.keepDocuments ?? true;
  const files: CheckedCheckpoint[] = [];
  for (const entry of entries) {
    const checked = checkLoadedFile(read(entry), validate, now, keep);
    if (!keep) {
      checked.document = undefined;
      checked.checkpoint = null;
    }
    files.push(checked);
  }
  return { dir: layout.checkpointsDir, exists: true, files };
}

/** One skill's file, validated; `missing` when there is no such file. */
export function checkOne(layout: WorkspaceLayout, skill: string, validate: CheckpointValidator, now: number): { missing: boolean; checked: CheckedCheckpoint } {
  const loaded = readCheckpointFile(layout, skill);
  return { missing: !loaded.ok && loaded.missing, checked: checkLoadedFile(loaded, validate, now) };
}
