// What the report may read: a workspace that exists (the report never creates one) and folders that
// stay inside it once symbolic links are resolved.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";

/** Refuse a folder with none of .aop/, agentic/orchestrator/ or the checkpoints folder: nothing to report. */
export function requireWorkspace(layout: WorkspaceLayout): void {
  const markers = [layout.aopDir, layout.orchestratorDir, layout.checkpointsDir];
  if (markers.some((dir) => isDirectory(dir))) return;
  throw new AopError("not_found", `no aop workspace at ${layout.root} (no .aop/, agentic/orchestrator/ or .checkpoints/)`, {
    details: { root: layout.root },
    hint: "run it inside a workspace or pass --root DIR; `aop init` creates one (the report never does)",
  });
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** True when `dir` exists and its real path leaves the workspace's real path (a linked folder). */
export function leavesWorkspace(layout: WorkspaceLayout, dir: string): boolean {
  let real: string;
  let root: string;
  try {
    real = fs.realpathSync(dir);
    root = fs.realpathSync(layout.root);
  } catch {
    return false;
  }
  const rel = path.relative(root, real);
  return rel.startsWith("..") || path.isAbsolute(rel);
}
