// Reads and writes the files of a checkpoints folder. Refuses what a careful reader must not trust:
// symbolic links leading outside the project (never followed), files over 1 MB (never read), non-files.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { CHECKPOINT_SUFFIX, FILE_MAX_BYTES, type CheckpointProblem } from "./checkpoint-types.js";

export type LoadedFile =
  | { name: string; path: string; ok: true; text: string; sizeBytes: number }
  | { name: string; path: string; ok: false; missing: boolean; problem: CheckpointProblem };

// O_NONBLOCK: a FIFO swapped in for a file must not hang the reader; it changes nothing for regular files.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

// One buffer, reused for every file: reading a thousand files allocates no per-file buffers.
let readBuffer: Buffer | undefined;

function refused(name: string, file: string, message: string, missing = false): LoadedFile {
  return { name, path: file, ok: false, missing, problem: { path: "", message } };
}

/** Real path of the project folder, computed once per folder read. */
function realProjectDir(layout: WorkspaceLayout): string {
  try {
    return fs.realpathSync(layout.checkpointsProjectDir);
  } catch {
    return path.resolve(layout.checkpointsProjectDir);
  }
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Open (never through a symbolic link: O_NOFOLLOW), read at most FILE_MAX_BYTES + 1 bytes in one read
 * (a short read of a regular file is its end), and refuse anything larger without parsing it.
 */
function readRegularFile(name: string, file: string, openPath: string): LoadedFile {
  let fd: number;
  try {
    fd = fs.openSync(openPath, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return refused(name, file, "does not exist", true);
    if (code === "ELOOP") return refused(name, file, "became a symbolic link while being read: refused");
    return refused(name, file, `cannot be read: ${(err as Error).message}`);
  }
  try {
    readBuffer ??= Buffer.allocUnsafe(FILE_MAX_BYTES + 1);
    const size = fs.readSync(fd, readBuffer, 0, readBuffer.length, 0);
    if (size > FILE_MAX_BYTES) {
      const actual = fs.fstatSync(fd).size;
      return refused(name, file, `is ${actual} bytes, over the ${FILE_MAX_BYTES / (1024 * 1024)} MB limit: refused, not parsed (a checkpoint should stay under 32 KB)`);
    }
    return { name, path: file, ok: true, text: readBuffer.toString("utf8", 0, size), sizeBytes: size };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EISDIR" || code === "EAGAIN") return refused(name, file, "is not a regular file");
    return refused(name, file, `cannot be read: ${(err as Error).message}`);
  } finally {
    fs.closeSync(fd);
  }
}

/** A symbolic link is followed only when its target lies inside the project. */
function readThroughLink(name: string, file: string, projectDir: string): LoadedFile {
  let target: string;
  try {
    target = fs.realpathSync(file);
  } catch {
    return refused(name, file, `is a symbolic link to ${safeReadLink(file)}, which does not exist`);
  }
  if (!isInside(projectDir, target)) {
    return refused(name, file, `is a symbolic link to ${target}, outside the project: refused, not followed (replace it with a regular file)`);
  }
  return readRegularFile(name, file, target);
}

function safeReadLink(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return "?";
  }
}

export function isCheckpointFileName(name: string): boolean {
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

/** A reader for a folder's entries (the project's real path is resolved once). */
export function entryReader(layout: WorkspaceLayout): (entry: FolderEntry) => LoadedFile {
  let projectDir: string | undefined;
  return (entry) => {
    if (entry.kind === "file") return readRegularFile(entry.name, entry.path, entry.path);
    if (entry.kind === "symlink") return readThroughLink(entry.name, entry.path, (projectDir ??= realProjectDir(layout)));
    return refused(entry.name, entry.path, "is not a regular file");
  };
}

/** One checkpoint file by its skill (the skill is validated as a path id first). */
export function readCheckpointFile(layout: WorkspaceLayout, skill: string): LoadedFile {
  const file = layout.checkpointFile(skill);
  const name = path.basename(file);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return refused(name, file, "does not exist", true);
  }
  if (stat.isSymbolicLink()) return readThroughLink(name, file, realProjectDir(layout));
  return readRegularFile(name, file, file);
}
