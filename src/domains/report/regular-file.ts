// The report reads workspace files through the store's one reader: regular files only (a FIFO would
// block, a device has no end), never through a symbolic link out of the workspace (docs/hardening.md).
import fs from "node:fs";
import { describeRefusal, openRegularFile } from "../../store/read-text-bounded.js";

export interface FileCheck {
  /** Why the file is not read; null when it may be. */
  problem: string | null;
  missing: boolean;
  size: number;
}

export function regularFileProblem(file: string): FileCheck {
  const opened = openRegularFile(file);
  if (opened.status !== "ok") return { problem: describeRefusal(opened), missing: opened.status === "missing", size: 0 };
  fs.closeSync(opened.fd);
  return { problem: null, missing: false, size: opened.stat.size };
}
