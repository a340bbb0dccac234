// Whole-file writes that never leave a partial target: temp file, fsync, rename, fsync the folder.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { defaultDirMode, defaultFileMode } from "./layout.js";
import { crashPoint } from "./crash-points.js";
import { noteCreate, noteMove, noteWrite } from "./effect-journal.js";

export function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: defaultDirMode(dir) });
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

/** Write `data` to a fresh temp file beside `file` (fsynced when durable); returns the temp path. */
function writeTemp(file: string, data: string | Uint8Array, options: AtomicWriteOptions): string {
  const dir = path.dirname(file);
  ensureDir(dir);
  const mode = options.mode ?? defaultFileMode(file);
  const temp = path.join(dir, `.${path.basename(file)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
  const fd = fs.openSync(temp, "wx", mode);
  try {
    fs.writeFileSync(fd, data);
    if (options.durable ?? true) fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  return temp;
}

export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  noteWrite(file, data);
  const temp = writeTemp(file, data, options);
  crashPoint("atomic:after-temp-write", file);
  try {
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  crashPoint("atomic:after-rename", file);
  if (options.durable ?? true) fsyncDir(path.dirname(file));
}

const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Like writeFileAtomic, but never replaces an existing file: returns false (and writes nothing) when
 * `file` already exists. A hard link publishes the complete temp file under the final name in one step
 * and fails if the name is taken, which no rename can do; where hard links are unsupported, the name is
 * reserved with an exclusive create first (a reader may then briefly see an empty file).
 */
export function createFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): boolean {
  if (fs.existsSync(file)) return false;
  noteCreate(file, data);
  const temp = writeTemp(file, data, options);
  try {
    try {
      fs.linkSync(temp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "";
      if (code === "EEXIST") return false;
      if (!NO_HARD_LINKS.has(code)) throw err;
      try {
        fs.closeSync(fs.openSync(file, "wx", options.mode ?? defaultFileMode(file)));
      } catch (reserveErr) {
        if ((reserveErr as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw reserveErr;
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

/** Move a file to a name that is free (a checkpoint into history/), noted as one effect. */
export function moveFile(from: string, to: string): void {
  noteMove(from, to);
  fs.renameSync(from, to);
  crashPoint("move:after-rename", to);
  fsyncDir(path.dirname(to));
}

export function writeJsonAtomic(file: string, value: unknown, options: AtomicWriteOptions = {}): void {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + "\n", options);
}
