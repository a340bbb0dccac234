// What the report may read: a workspace that exists (the report never creates one) and folders that
// stay inside it once symbolic links are resolved.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import { linkEscape } from "../../store/containment.js";
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

/** True when `dir` (or a folder above it) is a symbolic link out of the workspace (the store's containment rule). */
export function leavesWorkspace(_layout: WorkspaceLayout, dir: string): boolean {
  return linkEscape(dir) !== null;
}
