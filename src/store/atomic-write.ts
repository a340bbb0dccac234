// Writes that never leave a partial target (temp file, fsync, rename, fsync the folder) and never follow a
// symbolic link out of the workspace; failed system calls come back with their own codes (disk_full…).
import fs from "node:fs";
import path from "node:path";
import { AopError, errorFromErrno } from "../core/errors.js";
import { assertContained, containedWritePath, displayPath, missingWorkspaceRoot } from "./containment.js";
import { defaultDirMode, defaultFileMode } from "./layout.js";
import { crashPoint } from "./crash-points.js";
import { noteCreate, noteMove, noteWrite } from "./effect-journal.js";

/** `err` with its own code (disk_full, permission_denied, file_corrupt…) naming `file`, or `err` as it is. */
export function ioFailure(err: unknown, file: string): unknown {
  return errorFromErrno(err, file) ?? err;
}

/** Create `dir` (and its parents) unless it exists; a link out of the workspace on the way is refused. */
export function ensureDir(dir: string): void {
  assertContained(dir);
  makeDir(dir);
}

/**
 * mkdir -p for a folder whose containment was already checked, below a workspace root that exists: a
 * workspace is created by `aop init` alone (createWorkspaceFolder), never as a side effect of a write.
 */
function makeDir(dir: string): void {
  if (isFolder(dir)) return;
  const missingRoot = missingWorkspaceRoot(dir);
  if (missingRoot !== null) {
    throw new AopError("workspace_not_found", `the workspace ${missingRoot} does not exist (removed?): ${displayPath(dir)} was not created`, {
      details: { root: missingRoot, path: dir },
      hint: "run the command in a workspace that exists (`aop init --root <dir>` creates one), or restart the process that was serving the removed one",
    });
  }
  mkdirs(dir);
}

function isFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false; // mkdir reports why, with its own code
  }
}

/** The folder of a new workspace (`aop init`, `aop checkpoint init`), with its parents. */
export function createWorkspaceFolder(root: string): void {
  mkdirs(root);
}

function mkdirs(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: defaultDirMode(dir) });
  } catch (err) {
    throw ioFailure(realMkdirError(dir, err), dir);
  }
}

/** Recursive mkdir reports ENOENT for some failures (a read-only file system): ask for the real reason. */
function realMkdirError(dir: string, err: unknown): unknown {
  if ((err as NodeJS.ErrnoException).code !== "ENOENT") return err;
  let missing = dir;
  while (!fs.existsSync(path.dirname(missing)) && path.dirname(missing) !== missing) missing = path.dirname(missing);
  try {
    fs.mkdirSync(missing);
    fs.rmdirSync(missing);
  } catch (real) {
    return real;
  }
  return err;
}

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export interface AtomicWriteOptions {
  mode?: number;
  /** Skip the fsyncs (tests and throw-away files only). */
  durable?: boolean;
}

let tempCounter = 0;

/**
 * An exclusively created temp file: pid, time and a counter make its name unique on this host (a name
 * left by a crashed process of the same pid is stepped over). No random bytes: loading node:crypto for
 * them is a measurable part of a short command's start.
 */
function openTemp(dir: string, base: string, mode: number): { temp: string; fd: number } {
  for (let attempt = 0; ; attempt++) {
    const temp = path.join(dir, `.${base}.tmp-${process.pid}-${Date.now().toString(36)}-${(tempCounter++).toString(36)}`);
    try {
      return { temp, fd: fs.openSync(temp, "wx", mode) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 8) throw err;
    }
  }
}

// The temp files atomic writes leave behind when they are killed (the doctor reports them): the writer's
// pid, then time and counter in base 36 (older aop versions ended them with 8 hex digits).
const TEMP_NAME = /^\..+\.tmp-(\d+)-(?:[0-9a-f]{8}|[0-9a-z]+-[0-9a-z]+)$/;

export function isAtomicTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** The pid of the process that created an atomic write's temp file, from its name (null for other names). */
export function atomicTempWriterPid(name: string): number | null {
  const pid = Number(TEMP_NAME.exec(name)?.[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Write `data` to a fresh temp file beside `file` (fsynced when durable); returns the temp path. */
function writeTemp(file: string, data: string | Uint8Array, options: AtomicWriteOptions): string {
  const dir = path.dirname(file);
  makeDir(dir); // the caller checked `file`, and with it every folder above it
  const mode = options.mode ?? defaultFileMode(file);
  let opened: { temp: string; fd: number };
  try {
    opened = openTemp(dir, path.basename(file), mode);
  } catch (err) {
    throw ioFailure(err, file);
  }
  const { temp, fd } = opened;
  try {
    fs.writeFileSync(fd, data);
    if (options.durable ?? true) fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw ioFailure(err, file);
  }
  fs.closeSync(fd);
  return temp;
}

export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  // A link inside the workspace is written through (the link stays); one leading out is refused.
  const target = containedWritePath(file);
  noteWrite(target, data);
  const temp = writeTemp(target, data, options);
  crashPoint("atomic:after-temp-write", target);
  try {
    fs.renameSync(temp, target);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw ioFailure(err, file);
  }
  crashPoint("atomic:after-rename", target);
  if (options.durable ?? true) fsyncDir(path.dirname(target));
}

const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Like writeFileAtomic, but never replaces an existing file: returns false (and writes nothing) when
 * `file` already exists. A hard link publishes the complete temp file under the final name in one step
 * and fails if the name is taken, which no rename can do; where hard links are unsupported, the name is
 * reserved with an exclusive create first (a reader may then briefly see an empty file).
 */
export function createFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): boolean {
  assertContained(file);
  if (fs.existsSync(file)) return false;
  noteCreate(file, data);
  const temp = writeTemp(file, data, options);
  try {
    try {
      fs.linkSync(temp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "";
      if (code === "EEXIST") return false;
      if (!NO_HARD_LINKS.has(code)) throw ioFailure(err, file);
      try {
        fs.closeSync(fs.openSync(file, "wx", options.mode ?? defaultFileMode(file)));
      } catch (reserveErr) {
        if ((reserveErr as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw ioFailure(reserveErr, file);
      }
      fs.renameSync(temp, file);
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
  crashPoint("create:after-link", file);
  if (options.durable ?? true) fsyncDir(path.dirname(file));
  return true;
}

/**
 * Move a file to a name that is free (a checkpoint into history/), noted as one effect. Neither folder may
 * be a link out of the workspace (a link at `from` itself is moved as a link, never followed).
 */
export function moveFile(from: string, to: string): void {
  assertContained(path.dirname(from));
  assertContained(to);
  noteMove(from, to);
  try {
    fs.renameSync(from, to);
  } catch (err) {
    throw ioFailure(err, from);
  }
  crashPoint("move:after-rename", to);
  fsyncDir(path.dirname(to));
}

export function writeJsonAtomic(file: string, value: unknown, options: AtomicWriteOptions = {}): void {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + "\n", options);
}

/**
 * Write all of `data` at the descriptor's position: a short write (what a nearly full disk gives) is
 * continued, and the failure that follows comes back with its code (disk_full) naming `file`.
 */
export function writeAll(fd: number, data: string | Uint8Array, file: string): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  try {
    for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written, bytes.length - written);
  } catch (err) {
    throw ioFailure(err, file);
  }
}

/** Remove a file if present (one unlink: `fs.rmSync` stats the path twice first). Other failures throw. */
export function unlinkIfPresent(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** Remove a file (if present) unless a link on the way leads out of the workspace. */
export function removeFile(file: string): void {
  assertContained(path.dirname(file));
  try {
    unlinkIfPresent(file);
  } catch (err) {
    throw ioFailure(err, file);
  }
}

const WRITE_FLAGS = {
  append: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND,
  truncate: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC,
};

/**
 * Open `file` for appending (or rewriting from empty) as a regular file inside the workspace: a link out
 * of it is refused (path_outside_workspace), and so is a FIFO or device swapped in for the file
 * (not_a_regular_file), without blocking on it. The caller closes the descriptor.
 */
export function openForWriting(file: string, how: keyof typeof WRITE_FLAGS, mode = defaultFileMode(file)): number {
  const target = containedWritePath(file);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no reader fails at once instead of waiting for one.
    fd = fs.openSync(target, WRITE_FLAGS[how] | (fs.constants.O_NONBLOCK ?? 0), mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENXIO") throw notRegular(file, "FIFO or socket");
    throw ioFailure(err, file);
  }
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) {
    fs.closeSync(fd);
    throw notRegular(file, stat.isFIFO() ? "FIFO" : stat.isCharacterDevice() ? "character device" : "special file");
  }
  return fd;
}

function notRegular(file: string, found: string): AopError {
  return new AopError("not_a_regular_file", `${displayPath(file)} is a ${found}, not a regular file: not written`, { details: { path: file, found }, hint: "replace it with a regular file (or remove it)" });
}
