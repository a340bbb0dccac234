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

/** A tree entry: a blob (its file name) or a subtree (its folder name). */
interface TreeEntry {
  name: string;
  oid: string;
  tree: boolean;
}

/** A tree's object id from its entries, as git computes it (sorted, a subtree's name compared as "name/"). Pure. */
export function treeOid(entries: TreeEntry[], format: "sha1" | "sha256"): string {
  const key = (e: TreeEntry) => (e.tree ? `${e.name}/` : e.name);
  const sorted = [...entries].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const body = Buffer.concat(sorted.flatMap((e) => [Buffer.from(`${e.tree ? "40000" : "100644"} ${e.name}\0`), Buffer.from(e.oid, "hex")]));
  return createHash(format).update(`tree ${body.length}\0`).update(body).digest("hex");
}

/**
 * Builds the nested trees of `files` and returns the root tree's id. The ids are computed here, deepest
 * folder first, so every tree is written by one `mktree --batch` (a subtree is written before the tree
 * that names it); git's answer must be the same ids.
 */
export function writeTree(root: string, files: TreeFile[], format: "sha1" | "sha256"): string {
  const dirs = new Map<string, TreeEntry[]>();
  const dirOf = (d: string): TreeEntry[] => {
    let entries = dirs.get(d);
    if (entries === undefined) {
      entries = [];
      dirs.set(d, entries);
      if (d !== "") dirOf(d.includes("/") ? d.slice(0, d.lastIndexOf("/")) : "");
    }
    return entries;
  };
  dirOf("");
  for (const f of files) {
    const slash = f.treePath.lastIndexOf("/");
    dirOf(slash === -1 ? "" : f.treePath.slice(0, slash)).push({ name: f.treePath.slice(slash + 1), oid: f.oid, tree: false });
  }
  const depth = (d: string) => (d === "" ? 0 : d.split("/").length);
  const order = [...dirs.keys()].sort((a, b) => depth(b) - depth(a));
  const ids = new Map<string, string>();
  const input: string[] = [];
  for (const d of order) {
    const entries = dirs.get(d)!;
    const oid = treeOid(entries, format);
    ids.set(d, oid);
    input.push(entries.map((e) => `${e.tree ? "040000 tree" : "100644 blob"} ${e.oid}\t${e.name}`).join("\n") + "\n");
    if (d !== "") dirs.get(d.includes("/") ? d.slice(0, d.lastIndexOf("/")) : "")!.push({ name: d.slice(d.lastIndexOf("/") + 1), oid, tree: true });
  }
  const written = must(root, ["mktree", "--batch"], input.join("\n")).trim().split("\n");
  const expected = order.map((d) => ids.get(d)!);
  if (written.length !== expected.length || written.some((w, i) => w !== expected[i])) {
    throw new AopError("sync_git_failed", `git mktree wrote trees other than the ones computed (${written.length} for ${expected.length} folders)`);
  }
  return ids.get("")!;
}
