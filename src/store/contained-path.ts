// Keeps reads and writes inside the workspace: a path whose nearest existing part resolves (through
// symbolic links) outside the workspace root is refused with path_outside_workspace.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../core/errors.js";
import type { WorkspaceLayout } from "./layout.js";

function nearestExisting(file: string): string {
  let p = file;
  for (;;) {
    if (fs.lstatSync(p, { throwIfNoEntry: false })) return p;
    const parent = path.dirname(p);
    if (parent === p) return p;
    p = parent;
  }
}

/** Throws unless `file` (or, when it does not exist yet, the folder it would be created in) is inside the workspace. */
export function assertInsideWorkspace(layout: WorkspaceLayout, file: string): void {
  const root = fs.realpathSync(layout.root);
  let real: string;
  try {
    real = fs.realpathSync(nearestExisting(file));
  } catch {
    // A dangling link resolves nowhere: it cannot be checked, so it is not followed.
    throw new AopError("path_outside_workspace", `${layout.relative(file)} goes through a link that points nowhere`, { details: { path: layout.relative(file) } });
  }
  const rel = path.relative(root, real);
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new AopError("path_outside_workspace", `${layout.relative(file)} resolves outside the workspace (to ${real})`, {
      details: { path: layout.relative(file) },
      hint: "a symbolic link under the workspace points elsewhere; aop does not write through it — remove the link",
    });
  }
}
