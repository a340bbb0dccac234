// Which workspaces a search reads: the current one; with `all`, every workspace found under its root;
// with `origin`, the pulled records of `aop sync pull` (read-only, workspace-shaped folders under
// `.aop/remote/<remote>/<workspace_id>/`, each with its origin.json) whose origin the value names.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import { WorkspaceLayout } from "../../store/layout.js";

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

interface Origin {
  remote: string;
  workspace_id: string;
  display_name: string;
  dir: string;
}

/** The pulled workspaces of `layout`: each `.aop/remote/<remote>/<workspace_id>/` with a well-formed origin.json. */
function pulledWorkspaces(layout: WorkspaceLayout): Origin[] {
  const base = path.join(layout.aopDir, "remote");
  const out: Origin[] = [];
  for (const remote of dirs(base)) {
    for (const id of dirs(path.join(base, remote))) {
      if (!/^[0-9a-f]{32}$/.test(id)) continue;
      const dir = path.join(base, remote, id);
      const read = readBytesBounded(path.join(dir, "origin.json"), READ_LIMITS.smallRecord);
      if (read.status !== "ok") continue;
      let value: unknown;
      try {
        value = JSON.parse(read.bytes.toString("utf8"));
      } catch {
        continue;
      }
      const o = value as Record<string, unknown> | null;
      if (!o || o.version !== 1 || o.workspace_id !== id || typeof o.display_name !== "string") continue;
      out.push({ remote: typeof o.remote === "string" ? o.remote : remote, workspace_id: id, display_name: o.display_name, dir });
    }
  }
  return out;
}

/** The origin label: the display name cut to `[A-Za-z0-9._@-]`, with `#<8 hex>` when two pulled workspaces share it. */
function originLabels(origins: readonly Origin[]): Map<Origin, string> {
  const clean = (o: Origin) => o.display_name.replace(/[^A-Za-z0-9._@-]/g, "") || "workspace";
  const counts = new Map<string, number>();
  for (const o of origins) counts.set(clean(o), (counts.get(clean(o)) ?? 0) + 1);
  return new Map(origins.map((o) => [o, counts.get(clean(o))! > 1 ? `${clean(o)}#${o.workspace_id.slice(0, 8)}` : clean(o)]));
}

/** Whether `value` names the origin: its label, its display name, or a prefix of its workspace id (8+ hex). */
function originMatches(value: string, origin: Origin, label: string): boolean {
  if (value === label || value === origin.display_name) return true;
  return /^[0-9a-f]{8,32}$/.test(value) && origin.workspace_id.startsWith(value);
}

/** The workspaces to read, in a stable order. */
export function searchedWorkspaces(layout: WorkspaceLayout, options: { all: boolean; origin?: string }): SearchedWorkspace[] {
  const bases = options.all ? workspacesUnder(layout.root).map((dir) => (dir === layout.root ? layout : new WorkspaceLayout(dir))) : [layout];
  if (options.origin === undefined) return bases.map((l) => ({ layout: l, where: relWhere(layout.root, l.root), origin: null, readOnly: l !== layout }));
  const out: SearchedWorkspace[] = [];
  for (const base of bases) {
    const origins = pulledWorkspaces(base);
    const labels = originLabels(origins);
    for (const o of origins) {
      const label = labels.get(o)!;
      if (originMatches(options.origin, o, label)) out.push({ layout: new WorkspaceLayout(o.dir), where: relWhere(layout.root, o.dir), origin: label, readOnly: true });
    }
  }
  if (out.length === 0) {
    throw new AopError("invalid_argument", `no pulled records match origin '${options.origin.slice(0, 80)}'`, {
      details: { origin: options.origin },
      hint: "name a pulled workspace by its origin label, display name or a workspace-id prefix of 8+ hex (pull with `aop sync pull`)",
    });
  }
  return out;
}
