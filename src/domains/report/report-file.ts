// Writing the report file: where it goes by default, and an atomic write readable by its owner only
// (it describes what agents did, like the runtime files it is built from).
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import { writeFileAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";

const REPORT_FILE_MODE = 0o600;

/** `.aop/report.html`; a workspace without `.aop/` (config or checkpoints only) gets `aop-report.html` at its root. */
export function defaultReportPath(layout: WorkspaceLayout): string {
  return fs.existsSync(layout.aopDir) ? path.join(layout.aopDir, "report.html") : path.join(layout.root, "aop-report.html");
}

export function writeReportFile(file: string, html: string): { path: string; bytes: number } {
  const target = path.resolve(file);
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw new AopError("invalid_argument", `--out ${file} is a folder; name the HTML file to write`, { hint: "e.g. --out report.html" });
  if (stat && !stat.isFile() && !fs.lstatSync(target).isSymbolicLink()) throw new AopError("invalid_argument", `--out ${file} is not a regular file: not replaced`);
  // Atomic but not fsynced: the file is rebuilt by running the command again, and syncing 4 MB costs more
  // than building it. A full disk or a read-only folder comes back as disk_full / permission_denied.
  writeFileAtomic(target, html, { mode: REPORT_FILE_MODE, durable: false });
  return { path: target, bytes: Buffer.byteLength(html) };
}
