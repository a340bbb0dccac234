// Which folder is the workspace (docs/hardening.md, "Root rules"): --root, else AOP_ROOT, else the
// nearest ancestor of cwd holding a marker. With none, only a command that creates a workspace (aop init)
// may use the current folder; every other command fails instead of writing into cwd or /.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../core/errors.js";

export const ROOT_MARKERS: readonly string[] = [".aop", path.join("agentic", "orchestrator"), ".git"];

export interface RootOptions {
  /** `--root`; "" is refused, never read as "absent". */
  root?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Folders that also mark a workspace for this command (a protocol's own folder, e.g. .checkpoints). */
  extraMarkers?: readonly string[];
  /** `aop init`: the root may be a new folder, and without any marker the current folder is used. */
  createsWorkspace?: boolean;
}

/**
 * The nearest ancestor of `cwd` (itself included) holding one of `markers`, or null. The file-system
 * root is never found this way (a stray /.aop must not turn every unmarked folder into one workspace);
 * only an explicit --root / makes it one.
 */
export function findMarkedRoot(cwd: string, markers: readonly string[] = ROOT_MARKERS): string | null {
  let dir = path.resolve(cwd);
  for (;;) {
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    if (markers.some((marker) => fs.existsSync(path.join(dir, marker)))) return dir;
    dir = parent;
  }
}

function explicitRoot(value: string, source: string, cwd: string, createsWorkspace: boolean): string {
  if (value === "") {
    throw new AopError("invalid_argument", `${source} is empty; an empty value does not mean "not set"`, { details: { field: source }, hint: `name a folder (${source} ./my-project) or leave ${source} out` });
  }
  const root = path.resolve(cwd, value);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(root);
  } catch {
    stat = undefined;
  }
  if (stat?.isDirectory()) return root;
  if (!stat && createsWorkspace) return root;
  throw new AopError("workspace_not_found", `${source} ${root} ${stat ? "is not a folder" : "does not exist"}`, {
    details: { root, source },
    hint: stat ? "name the workspace folder" : "create it with `aop init --root <dir>`, or fix the path",
  });
}

export function findWorkspaceRoot(options: RootOptions = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const createsWorkspace = options.createsWorkspace === true;
  if (options.root !== undefined) return explicitRoot(options.root, "--root", cwd, createsWorkspace);
  const fromEnv = (options.env ?? process.env).AOP_ROOT;
  if (fromEnv !== undefined) return explicitRoot(fromEnv, "AOP_ROOT", cwd, createsWorkspace);
  const found = findMarkedRoot(cwd, [...ROOT_MARKERS, ...(options.extraMarkers ?? [])]);
  if (found !== null) return found;
  if (createsWorkspace) return path.resolve(cwd);
  const markers = [...ROOT_MARKERS, ...(options.extraMarkers ?? [])].map((m) => m.split(path.sep).join("/") + "/").join(", ");
  throw new AopError("workspace_not_found", `no workspace here: no folder from ${path.resolve(cwd)} up to / holds ${markers}`, {
    details: { cwd: path.resolve(cwd) },
    hint: "run `aop init` in the project folder first, or pass --root DIR (or set AOP_ROOT)",
  });
}
