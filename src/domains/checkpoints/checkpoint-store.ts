// Reads the files of a checkpoints folder. Refuses what a careful reader must not trust: symbolic links
// leading outside the project (never followed), files over 1 MB (never read), non-files.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { openRegularFile, type Refusal } from "../../store/read-text-bounded.js";
import { CHECKPOINT_SUFFIX, FILE_MAX_BYTES, type CheckpointProblem } from "./checkpoint-types.js";

export type LoadedFile =
  | { name: string; path: string; ok: true; text: string; sizeBytes: number }
  | { name: string; path: string; ok: false; missing: boolean; problem: CheckpointProblem };

// One buffer, reused for every file: reading a thousand files allocates no per-file buffers.
let readBuffer: Buffer | undefined;

function refused(name: string, file: string, message: string, missing = false): LoadedFile {
  return { name, path: file, ok: false, missing, problem: { path: "", message } };
}

/** Where a symbolic link at `file` points (as written), or null when `file` is not a link. */
function linkText(file: string): string | null {
  try {
    return fs.readlinkSync(file);
  } catch {
    return null;
  }
}

/** Why the store would not open the file, in the words checkpoint users know. */
function refusalMessage(file: string, refusal: Exclude<Refusal, { status: "too_large" }>): string {
  if (refusal.status === "missing") {
    const to = linkText(file);
    return to === null ? "does not exist" : `is a symbolic link to ${to}, which does not exist`;
  }
  if (refusal.status === "outside_workspace") {
    const to = linkText(file);
    if (to !== null && !fs.existsSync(file)) return `is a symbolic link to ${to}, which does not exist`;
    return `${to === null ? "lies in a folder that is a symbolic link" : "is a symbolic link"} to ${refusal.resolved}, outside the project: refused, not followed (replace it with a regular file)`;
  }
  if (refusal.status === "not_a_file") return "is not a regular file";
  return `cannot be read: ${refusal.reason}`;
}

/**
 * Open through the store's one reader (regular files only, never through a link out of the project, no
 * blocking on a FIFO), read at most FILE_MAX_BYTES + 1 bytes in one read (a short read of a regular file
 * is its end), and refuse anything larger without parsing it.
 */
function readCheckpointPath(name: string, file: string, memo?: Set<string>): LoadedFile {
  const opened = openRegularFile(file, memo ? { memo } : {});
  if (opened.status !== "ok") return refused(name, file, refusalMessage(file, opened), opened.status === "missing" && linkText(file) === null);
  const { fd } = opened;
  try {
    readBuffer ??= Buffer.allocUnsafe(FILE_MAX_BYTES + 1);
    const size = fs.readSync(fd, readBuffer, 0, readBuffer.length, 0);
    if (size > FILE_MAX_BYTES) {
      return refused(name, file, `is ${opened.stat.size} bytes, over the ${FILE_MAX_BYTES / (1024 * 1024)} MB limit: refused, not parsed (a checkpoint should stay under 32 KB)`);
    }
    return { name, path: file, ok: true, text: readBuffer.toString("utf8", 0, size), sizeBytes: size };
  } catch (err) {
    return refused(name, file, `cannot be read: ${(err as Error).message}`);
  } finally {
    fs.closeSync(fd);
  }
}

function isCheckpointFileName(name: string): boolean {
  return name.endsWith(CHECKPOINT_SUFFIX) && name.length > CHECKPOINT_SUFFIX.length && !name.startsWith(".");
}

export interface FolderEntry {
  name: string;
  path: string;
  kind: "file" | "symlink" | "other";
}

/** The `*.checkpoint.json` entries of the folder, sorted by name; null when there is no folder. */
export function listCheckpointEntries(layout: WorkspaceLayout): FolderEntry[] | null {
  const dir = layout.checkpointsDir;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ENOTDIR") throw new AopError("invalid_argument", `${dir} is not a folder`, { hint: "point --dir at a .checkpoints/ folder" });
    throw new AopError("io_error", `cannot list ${dir}: ${(err as Error).message}`);
  }
  // Names sorted by the built-in comparison (UTF-16 code units, like `<`): no comparator call per step.
  const byName = new Map<string, fs.Dirent>();
  for (const e of entries) if (isCheckpointFileName(e.name)) byName.set(e.name, e);
  return [...byName.keys()].sort().map((name) => {
    const e = byName.get(name)!;
    return { name, path: layout.checkpointFileByName(name), kind: e.isSymbolicLink() ? "symlink" : e.isFile() ? "file" : "other" };
  });
}

/** A reader for a folder's entries (the folder is checked to be inside the project once). */
export function entryReader(_layout: WorkspaceLayout): (entry: FolderEntry) => LoadedFile {
  const memo = new Set<string>();
  return (entry) => (entry.kind === "other" ? refused(entry.name, entry.path, "is not a regular file") : readCheckpointPath(entry.name, entry.path, memo));
}

/** One checkpoint file by its skill (the skill is validated as a path id first). */
export function readCheckpointFile(layout: WorkspaceLayout, skill: string): LoadedFile {
  const file = layout.checkpointFile(skill);
  return readCheckpointPath(path.basename(file), file);
}
