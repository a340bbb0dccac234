// Whole-file writes that never leave a partial target: temp file, fsync, rename, fsync the folder.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { defaultDirMode, defaultFileMode } from "./layout.js";

export function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: defaultDirMode(dir) });
}

function fsyncDir(dir: string): void {
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

export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const dir = path.dirname(file);
  ensureDir(dir);
  const mode = options.mode ?? defaultFileMode(file);
  const durable = options.durable ?? true;
  const temp = path.join(dir, `.${path.basename(file)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
  const fd = fs.openSync(temp, "wx", mode);
  try {
    fs.writeFileSync(fd, data);
    if (durable) fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  if (durable) fsyncDir(dir);
}

export function writeJsonAtomic(file: string, value: unknown, options: AtomicWriteOptions = {}): void {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + "\n", options);
}
