// Git objects for a records tree, written with plumbing only: blobs with `hash-object -w --stdin-paths`
// (one process for every file), trees with `mktree --batch` (one process per folder depth). Nothing here
// reads or writes the index, a branch or the work tree.
import { createHash } from "node:crypto";
import { AopError } from "../../core/errors.js";
import { must } from "./sync-git.js";

export interface TreeFile {
  treePath: string;
  oid: string;
}

/** A blob's object id, computed as git does, so an unchanged segment is recognised without writing it. Pure. */
export function blobOid(bytes: Buffer, format: "sha1" | "sha256"): string {
  return createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Writes the files at `paths` as blobs; their ids, in order. */
export function hashFiles(root: string, paths: string[]): string[] {
  if (paths.length === 0) return [];
  const out = must(root, ["hash-object", "-w", "--no-filters", "--stdin-paths"], paths.join("\n") + "\n").trim().split("\n");
  if (out.length !== paths.length) throw new AopError("sync_git_failed", `git hash-object wrote ${out.length} objects for ${paths.length} files`);
  return out;
}

/** One entry of a tree listing (`ls-tree -r -z -l`). */
export interface ListedEntry {
  mode: string;
  type: string;
  oid: string;
  size: number | null;
  path: string;
}

/** Parses `git ls-tree -r -z -l` output. Pure. */
function parseLsTree(out: string): ListedEntry[] {
  const entries: ListedEntry[] = [];
  for (const record of out.split("\0")) {
    if (record === "") continue;
    const tab = record.indexOf("\t");
    const [mode, type, oid, size] = record.slice(0, tab).split(/ +/) as [string, string, string, string];
    entries.push({ mode, type, oid, size: size === "-" ? null : Number(size), path: record.slice(tab + 1) });
  }
  return entries;
}

export function listTree(root: string, commitOrTree: string): ListedEntry[] {
  return parseLsTree(must(root, ["ls-tree", "-r", "-z", "-l", "--full-tree", commitOrTree]));
}

/** Builds the nested trees of `files` bottom-up and returns the root tree's id. */
export function writeTree(root: string, files: TreeFile[]): string {
  // folder ('' for the root) → its entries, as mktree lines once the subfolders' ids are known
  const dirs = new Map<string, { blobs: string[]; subdirs: Set<string> }>();
  const dirOf = (d: string) => {
    let entry = dirs.get(d);
    if (entry === undefined) {
      entry = { blobs: [], subdirs: new Set() };
      dirs.set(d, entry);
      if (d !== "") {
        const parent = d.includes("/") ? d.slice(0, d.lastIndexOf("/")) : "";
        dirOf(parent).subdirs.add(d);
      }
    }
    return entry;
  };
  dirOf("");
  for (const f of files) {
    const slash = f.treePath.lastIndexOf("/");
    const dir = slash === -1 ? "" : f.treePath.slice(0, slash);
    dirOf(dir).blobs.push(`100644 blob ${f.oid}\t${f.treePath.slice(slash + 1)}`);
  }
  const depth = (d: string) => (d === "" ? 0 : d.split("/").length);
  const treeIds = new Map<string, string>();
  const byDepth = [...dirs.keys()].sort((a, b) => depth(b) - depth(a));
  for (let at = 0; at < byDepth.length; ) {
    const level = depth(byDepth[at]!);
    const batch: string[] = [];
    while (at < byDepth.length && depth(byDepth[at]!) === level) batch.push(byDepth[at++]!);
    const input = batch
      .map((d) => {
        const entry = dirs.get(d)!;
        const subs = [...entry.subdirs].map((s) => `040000 tree ${treeIds.get(s)!}\t${s.slice(s.lastIndexOf("/") + 1)}`);
        return [...entry.blobs, ...subs].join("\n") + "\n";
      })
      .join("\n");
    const ids = must(root, ["mktree", "--batch"], input).trim().split("\n");
    if (ids.length !== batch.length) throw new AopError("sync_git_failed", `git mktree wrote ${ids.length} trees for ${batch.length} folders`);
    batch.forEach((d, i) => treeIds.set(d, ids[i]!));
  }
  return treeIds.get("")!;
}
