// Which workspaces a search reads: the current one; with `all`, every workspace found under its root;
// with `origin`, the pulled records of `aop sync pull` (read-only, workspace-shaped folders under
// `.aop/remote/<remote>/<workspace_id>/`, each with its origin.json) whose origin the value names.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import { WorkspaceLayout } from "../../store/layout.js";
import { listOrigins, originsMatching } from "../origins/index.js";

export interface SearchedWorkspace {
  layout: WorkspaceLayout;
  /** Its root relative to the searching workspace's ("" for that one). */
  where: string;
  /** The pulled workspace's origin label, null for a local one. */
  origin: string | null;
  /** Pulled records are never written to: no index there. */
  readOnly: boolean;
}

const MAX_DEPTH = 3;
const MAX_WORKSPACES = 200;
const SKIP_DIRS = new Set(["node_modules", ".git", ".aop", ".checkpoints", "memory", "dist"]);

function dirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.isSymbolicLink())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

function hasAop(dir: string): boolean {
  try {
    return fs.lstatSync(path.join(dir, ".aop")).isDirectory();
  } catch {
    return false;
  }
}

function relWhere(base: string, dir: string): string {
  return path.relative(base, dir).split(path.sep).join("/");
}

/** Every folder under `root` (itself included, at most three levels down, links not followed) holding `.aop/`. */
function workspacesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (out.length >= MAX_WORKSPACES) return;
    if (hasAop(dir)) out.push(dir);
    if (depth >= MAX_DEPTH) return;
    for (const name of dirs(dir)) if (!SKIP_DIRS.has(name) && !name.startsWith(".")) walk(path.join(dir, name), depth + 1);
  };
  walk(root, 0);
  return out;
}

/** The workspaces to read, in a stable order. */
export function searchedWorkspaces(layout: WorkspaceLayout, options: { all: boolean; origin?: string }): SearchedWorkspace[] {
  const bases = options.all ? workspacesUnder(layout.root).map((dir) => (dir === layout.root ? layout : new WorkspaceLayout(dir))) : [layout];
  if (options.origin === undefined) return bases.map((l) => ({ layout: l, where: relWhere(layout.root, l.root), origin: null, readOnly: l !== layout }));
  const out: SearchedWorkspace[] = [];
  for (const base of bases) {
    for (const o of originsMatching(listOrigins(base).origins, options.origin)) out.push({ layout: o.layout, where: relWhere(layout.root, o.dir), origin: o.label, readOnly: true });
  }
  if (out.length === 0) {
    throw new AopError("origin_not_found", `no pulled records match origin '${options.origin.slice(0, 80)}'`, {
      details: { origin: options.origin },
      hint: "name a pulled workspace by its origin label, display name, git remote or a workspace-id prefix of 8+ hex (pull with `aop sync pull`)",
    });
  }
  return out;
}
