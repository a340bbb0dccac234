// Tolerant file-system probes for readers that treat "absent" and "unreadable" alike (doctors, scans).
import fs from "node:fs";

export function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The folder's entries, or [] when it does not exist or cannot be read. */
export function readDirEntries(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Modification time in epoch ms, or undefined when the file is gone. */
export function mtimeMs(file: string): number | undefined {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Size in bytes (what a link leads to), or undefined when the file is gone or cannot be examined. */
export function fileSize(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

/** The folder's names, or [] when it does not exist; other failures are thrown (verifiers fail closed). */
export function listDirIfPresent(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw err;
  }
}
