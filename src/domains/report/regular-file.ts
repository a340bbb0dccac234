// The report reads workspace files only when they are regular files reached without a symbolic link:
// a FIFO would block the reader, a device has no end, a link may lead out of the workspace.
import fs from "node:fs";

export interface FileCheck {
  /** Why the file is not read; null when it may be. */
  problem: string | null;
  missing: boolean;
  size: number;
}

export function regularFileProblem(file: string): FileCheck {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "error";
    const missing = code === "ENOENT" || code === "ENOTDIR";
    return { problem: missing ? "does not exist" : `cannot be read (${code})`, missing, size: 0 };
  }
  if (stat.isSymbolicLink()) return { problem: "is a symbolic link: not followed", missing: false, size: 0 };
  if (!stat.isFile()) return { problem: "is not a regular file: not read", missing: false, size: 0 };
  return { problem: null, missing: false, size: stat.size };
}
