// The pulled workspaces beside the local records: `.aop/remote/<remote>/<workspace_id>/origin.json`, written
// by `aop sync pull` (docs/handoff.md). A folder that is not a well-formed pull (a link, a wrong name, an
// origin.json that does not parse or disagrees with where it lies) is skipped with a warning, never fatal.
import fs from "node:fs";
import path from "node:path";
import { isWorkspaceId } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import { LOCAL_ORIGIN, matchOrigin, originLabels } from "./origin-label.js";
import { parseOriginRecord, type OriginRecord } from "./origin-record.js";
import { PulledLayout } from "./pulled-layout.js";
import { compareText } from "../../core/compare-text.js";

const MAX_ORIGIN_BYTES = 16 * 1024;
/** Bounds of one listing (docs/hardening.md): remotes, and workspaces per remote. */
const MAX_REMOTES = 64;
const MAX_WORKSPACES_PER_REMOTE = 1024;

export interface Origin extends OriginRecord {
  /** How it is shown and chosen (`--origin`), unique among the pulled workspaces. */
  label: string;
  /** The folder, workspace-shaped. */
  dir: string;
  layout: PulledLayout;
}

export interface OriginListing {
  origins: Origin[];
  /** One line per folder skipped: what it is and why. */
  warnings: string[];
}

/** Real folders only: a link in `.aop/remote/` is never followed. */
function subfolders(dir: string, limit: number, warnings: string[], rel: (p: string) => string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push(`${rel(dir)}: not readable (${code ?? "error"}); skipped`);
    return [];
  }
  const names = entries.filter((e) => !e.name.startsWith(".")).sort((a, b) => compareText(a.name, b.name));
  const out: string[] = [];
  for (const e of names) {
    if (!e.isDirectory()) {
      warnings.push(`${rel(path.join(dir, e.name))}: not a folder${e.isSymbolicLink() ? " (a symbolic link)" : ""}; skipped`);
      continue;
    }
    if (out.length === limit) {
      warnings.push(`${rel(dir)}: more than ${limit} folders; the rest are not read`);
      break;
    }
    out.push(e.name);
  }
  return out;
}

/** This workspace's own id, when it has one (never created here). */
function ownWorkspaceId(local: WorkspaceLayout): string | null {
  const read = readTextBounded(local.workspaceIdentityFile, MAX_ORIGIN_BYTES * 4);
  if (read.status !== "ok" || read.truncated || read.binary) return null;
  try {
    const id = (JSON.parse(read.text) as { workspace_id?: unknown }).workspace_id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}

/** Every pulled workspace, each with its label, in label order, and what was skipped. */
export function listOrigins(local: WorkspaceLayout): OriginListing {
  const warnings: string[] = [];
  // A pull fetches the other workspaces' refs; this workspace's own records, if one lies here, are not an origin.
  const own = ownWorkspaceId(local);
  const rel = (p: string) => local.relative(p);
  const found: (OriginRecord & { dir: string })[] = [];
  for (const remote of subfolders(local.remoteDir, MAX_REMOTES, warnings, rel)) {
    const remoteDir = path.join(local.remoteDir, remote);
    for (const name of subfolders(remoteDir, MAX_WORKSPACES_PER_REMOTE, warnings, rel)) {
      const dir = path.join(remoteDir, name);
      const file = path.join(dir, "origin.json");
      const skip = (why: string) => void warnings.push(`${rel(dir)}: ${why}; skipped`);
      if (name === own) continue;
      if (!isWorkspaceId(name)) {
        skip("its name is not a workspace id (32 lowercase hex characters)");
        continue;
      }
      const read = readTextBounded(file, MAX_ORIGIN_BYTES);
      if (read.status !== "ok") {
        skip(read.status === "missing" ? "it has no origin.json" : `origin.json is ${read.status === "unreadable" ? `unreadable (${read.reason})` : read.status.replace(/_/g, " ")}`);
        continue;
      }
      if (read.truncated || read.binary) {
        skip(`origin.json is ${read.binary ? "not text" : `over ${MAX_ORIGIN_BYTES} bytes`}`);
        continue;
      }
      const record = parseOriginRecord(read.text);
      if ("problem" in record) skip(`origin.json ${record.problem}`);
      else if (record.workspace_id !== name) skip(`origin.json names workspace ${record.workspace_id.slice(0, 8)}…, not the folder's`);
      else if (record.remote !== remote) skip(`origin.json names remote '${record.remote}', not the folder's`);
      else found.push({ ...record, dir });
    }
  }
  // One workspace pulled through two remotes is one origin: its newest pull is read.
  const newest = new Map<string, OriginRecord & { dir: string }>();
  for (const o of found) {
    const seen = newest.get(o.workspace_id);
    if (!seen || o.committed_at > seen.committed_at) newest.set(o.workspace_id, o);
  }
  const unique = [...newest.values()];
  const labels = originLabels(unique);
  const origins = unique.map((o, i) => ({ ...o, label: labels[i]!, layout: new PulledLayout(o.dir, local, o.workspace_id) }));
  return { origins: origins.sort((a, b) => compareText(a.label, b.label) || compareText(a.remote, b.remote)), warnings };
}

/** `--origin X`: `local` (null: the local records only) or the one pulled workspace X names. */
export function selectOrigin(listing: OriginListing, wanted: string): Origin | null {
  if (wanted === LOCAL_ORIGIN) return null;
  return matchOrigin(listing.origins, wanted);
}
