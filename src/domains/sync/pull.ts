// aop sync pull: fetch every workspace's records ref (refs/aop/records/* → refs/aop/remotes/<remote>/*)
// and lay each other workspace's records out, read-only, in a workspace-shaped folder
// .aop/remote/<remote>/<workspace_id>/ that every existing reader opens with a WorkspaceLayout
// (docs/sync.md). Pulled trees are untrusted: a path outside the layout, a symbolic link, a submodule, an
// oversized blob or too many files refuses that origin whole (the others are still pulled). A folder is
// built beside the old one and renamed in, so a reader never sees half of one.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isoUtc, type Clock } from "../../core/clock.js";
import { isWorkspaceId } from "../../core/ids.js";
import { ensureDir, writeFileAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { ensureWorkspaceIdentity, isDisplayName } from "../../store/workspace-identity.js";
import { parseOriginRecord, type OriginRecord } from "../origins/index.js";
import { MAX_FILE_BYTES } from "./collect.js";
import { listTree, type ListedEntry } from "./git-objects.js";
import { countLines, placeTreePath, SEGMENT_LINES } from "./record-tree.js";
import { gitAsync, gitEnv, gitFailure, must, requireRemote, requireRepository } from "./sync-git.js";

/** An origin's tree holds at most this many files and this many bytes (docs/sync.md "Limits"). */
const MAX_PULL_FILES = 200_000;
const MAX_PULL_BYTES = 2 * 1024 * 1024 * 1024;

interface PulledOrigin {
  workspace_id: string;
  display_name: string | null;
  commit: string;
  /** pulled: (re)materialized; unchanged: the folder already held this commit; refused: untrusted tree turned down. */
  status: "pulled" | "unchanged" | "refused";
  reason: string | null;
  files: number;
  runs: number;
  folder: string;
}

export interface PullResult {
  remote: string;
  workspace_id: string;
  origins: PulledOrigin[];
}

/** A pulled folder's origin.json, checked field by field as the readers check it; null when absent or not one. */
export function readOriginFile(dir: string): OriginRecord | null {
  const read = readBytesBounded(path.join(dir, "origin.json"), READ_LIMITS.smallRecord);
  if (read.status !== "ok") return null;
  const record = parseOriginRecord(read.bytes.toString("utf8"));
  return "problem" in record ? null : record;
}

class Refused extends Error {}

interface Plan {
  entries: { entry: ListedEntry; local: string; segment: { run: string; ext: boolean } | null }[];
  runs: Set<string>;
}

/** Checks an untrusted tree listing against the layout and the bounds; what goes where. Pure. */
export function planOrigin(listing: ListedEntry[]): Plan | { refused: string } {
  if (listing.length > MAX_PULL_FILES) return { refused: `it holds ${listing.length} files (at most ${MAX_PULL_FILES})` };
  let total = 0;
  const plan: Plan = { entries: [], runs: new Set() };
  const seen = new Set<string>();
  for (const entry of listing) {
    if (entry.mode === "120000") return { refused: `'${entry.path.slice(0, 200)}' is a symbolic link` };
    if (entry.mode === "160000" || entry.type === "commit") return { refused: `'${entry.path.slice(0, 200)}' is a submodule` };
    if (entry.type !== "blob" || (entry.mode !== "100644" && entry.mode !== "100755")) return { refused: `'${entry.path.slice(0, 200)}' is not a plain file (mode ${entry.mode})` };
    if (entry.size === null || entry.size > MAX_FILE_BYTES) return { refused: `'${entry.path.slice(0, 200)}' is larger than ${MAX_FILE_BYTES} bytes` };
    total += entry.size;
    if (total > MAX_PULL_BYTES) return { refused: `its files add up to more than ${MAX_PULL_BYTES} bytes` };
    const place = placeTreePath(entry.path);
    if (place.kind === "refused") return { refused: place.reason };
    if (place.kind === "workspace") continue;
    if (place.kind === "segment") {
      plan.runs.add(place.run);
      plan.entries.push({ entry, local: place.local, segment: { run: place.run, ext: place.ext } });
      continue;
    }
    // Two tree paths never land on one file (a meta named like a segment's join, say).
    if (seen.has(place.local)) return { refused: `'${entry.path.slice(0, 200)}' lands on a file another entry already fills` };
    seen.add(place.local);
    plan.entries.push({ entry, local: place.local, segment: null });
  }
  return plan;
}

/** Streams the blobs of `oids` (`git cat-file --batch`) to `onBlob`, one at a time, in order. */
function readBlobs(root: string, oids: string[], onBlob: (index: number, bytes: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["cat-file", "--batch"], { cwd: root, env: gitEnv() });
    let buffered: Buffer = Buffer.alloc(0);
    let index = 0;
    let failed: Error | null = null;
    child.stdout.on("data", (chunk: Buffer) => {
      if (failed) return;
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        const nl = buffered.indexOf(10);
        if (nl === -1) return;
        const header = buffered.subarray(0, nl).toString("latin1").split(" ");
        if (header[1] !== "blob") {
          failed = new Refused(`object ${header[0]} is ${header[1] ?? "unreadable"}, not a blob`);
          child.kill();
          return;
        }
        const size = Number(header[2]);
        if (!(size <= MAX_FILE_BYTES)) {
          failed = new Refused(`object ${header[0]} is larger than ${MAX_FILE_BYTES} bytes`);
          child.kill();
          return;
        }
        if (buffered.length < nl + 1 + size + 1) return;
        try {
          onBlob(index++, buffered.subarray(nl + 1, nl + 1 + size));
        } catch (err) {
          failed = err as Error;
          child.kill();
          return;
        }
        buffered = Buffer.from(buffered.subarray(nl + 1 + size + 1));
      }
    });
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", () => (failed ? reject(failed) : index === oids.length ? resolve() : reject(new Error(`git cat-file answered ${index} of ${oids.length} objects`))));
    child.stdin.on("error", () => undefined);
    child.stdin.end(oids.join("\n") + "\n");
  });
}

/** Makes a folder tree read-only (files 0444, folders 0555), or writable again before it is removed. */
function setReadOnly(dir: string, readOnly: boolean): void {
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = fs.lstatSync(p);
    if (st.isDirectory()) {
      if (!readOnly) fs.chmodSync(p, 0o755);
      setReadOnly(p, readOnly);
      if (readOnly) fs.chmodSync(p, 0o555);
    } else if (st.isFile()) fs.chmodSync(p, readOnly ? 0o444 : 0o644);
  }
}

function removeTree(dir: string): void {
  if (!fs.existsSync(dir)) return;
  try {
    fs.chmodSync(dir, 0o755);
    setReadOnly(dir, false);
  } catch {
    // removed below as far as permissions allow
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

async function materialize(layout: WorkspaceLayout, root: string, remote: string, id: string, commit: string, clock: Clock): Promise<PulledOrigin> {
  const dir = path.join(layout.remoteFolder(remote), id);
  const base = { workspace_id: id, commit, folder: layout.relative(dir) };
  const before = readOriginFile(dir);
  if (before !== null && before.commit === commit) return { ...base, display_name: before.display_name, status: "unchanged", reason: null, files: 0, runs: 0 };
  const refused = (reason: string, display: string | null = null): PulledOrigin => ({ ...base, display_name: display, status: "refused", reason, files: 0, runs: 0 });
  const listing = listTree(root, commit);
  const planned = planOrigin(listing);
  if ("refused" in planned) return refused(planned.refused);
  const workspaceEntry = listing.find((e) => e.path === "workspace.json");
  if (workspaceEntry === undefined || (workspaceEntry.size ?? Infinity) > READ_LIMITS.workspaceIdentity) return refused("it has no workspace.json (or one too large)");
  let display: string;
  try {
    const w = JSON.parse(must(root, ["cat-file", "blob", workspaceEntry.oid])) as { workspace_id?: unknown; display_name?: unknown };
    if (w.workspace_id !== id) return refused(`its workspace.json names workspace ${String(w.workspace_id).slice(0, 40)}, not ${id}`);
    display = isDisplayName(w.display_name) ? w.display_name : id.slice(0, 8);
  } catch {
    return refused("its workspace.json is not JSON");
  }
  const parent = layout.remoteFolder(remote);
  ensureDir(parent);
  const stage = fs.mkdtempSync(path.join(parent, `.pull-${id}-`));
  try {
    const opened = new Map<string, number>();
    const place = (e: Plan["entries"][number], bytes: Buffer): void => {
      const target = path.join(stage, e.local);
      if (e.segment === null) {
        ensureDir(path.dirname(target));
        fs.writeFileSync(target, bytes, { flag: "wx" });
        return;
      }
      const n = countLines(bytes);
      if (n > SEGMENT_LINES || (bytes.length > 0 && bytes[bytes.length - 1] !== 10)) throw new Refused(`segment '${e.entry.path}' holds ${n} lines (at most ${SEGMENT_LINES}, each ending in a newline)`);
      let fd = opened.get(target);
      if (fd === undefined) {
        ensureDir(path.dirname(target));
        fd = fs.openSync(target, "wx");
        opened.set(target, fd);
      }
      fs.writeSync(fd, bytes);
    };
    try {
      await readBlobs(
        root,
        planned.entries.map((e) => e.entry.oid),
        (i, bytes) => {
          try {
            place(planned.entries[i]!, bytes);
          } catch (err) {
            if (err instanceof Refused) throw err;
            // Two entries on one path (a file where a folder is, a name twice): the tree is not one sync wrote.
            const code = (err as NodeJS.ErrnoException).code;
            if (code === "EEXIST" || code === "EISDIR" || code === "ENOTDIR") throw new Refused(`'${planned.entries[i]!.entry.path.slice(0, 200)}' collides with another entry of the tree`);
            throw err;
          }
        },
      );
    } finally {
      for (const fd of opened.values()) fs.closeSync(fd);
    }
    const committedAt = new Date(Number(must(root, ["show", "-s", "--format=%ct", commit]).trim()) * 1000);
    const origin: OriginRecord = { version: 1, remote, workspace_id: id, display_name: display, commit, committed_at: isoUtc(committedAt.getTime()), pulled_at: isoUtc(clock.now()) };
    writeFileAtomic(path.join(stage, "origin.json"), JSON.stringify(origin, null, 2) + "\n");
    setReadOnly(stage, true);
    fs.chmodSync(stage, 0o555);
    // Renamed in whole: the old folder steps aside first, then goes.
    const old = fs.existsSync(dir) ? `${stage}.old` : null;
    if (old !== null) fs.renameSync(dir, old);
    fs.renameSync(stage, dir);
    if (old !== null) removeTree(old);
    return { ...base, display_name: display, status: "pulled", reason: null, files: planned.entries.length, runs: planned.runs.size };
  } catch (err) {
    removeTree(stage);
    if (err instanceof Refused) return refused(err.message, display);
    throw err;
  }
}

export async function pullRecords(layout: WorkspaceLayout, clock: Clock, options: { remote?: string } = {}): Promise<PullResult> {
  const root = layout.root;
  requireRepository(root);
  const remote = requireRemote(root, options.remote ?? "origin");
  const own = (await ensureWorkspaceIdentity(layout, clock)).identity.workspace_id;
  const fetchArgs = ["fetch", "--no-tags", "--no-write-fetch-head", "--prune", remote, `+refs/aop/records/*:refs/aop/remotes/${remote}/*`];
  const fetched = await gitAsync(root, fetchArgs);
  if (fetched.status !== 0) throw gitFailure(fetchArgs, fetched, "sync_git_failed", "check that the remote is reachable (`git ls-remote REMOTE`) and run the command again");
  const refs = must(root, ["for-each-ref", "--format=%(objectname) %(objecttype) %(refname)", `refs/aop/remotes/${remote}/`]);
  const origins: PulledOrigin[] = [];
  for (const line of refs.trim().split("\n").filter(Boolean)) {
    const [oid, type, name] = line.split(" ") as [string, string, string];
    const id = name.slice(`refs/aop/remotes/${remote}/`.length);
    if (id === own) continue;
    const folder = layout.relative(path.join(layout.remoteFolder(remote), isWorkspaceId(id) ? id : "_"));
    if (!isWorkspaceId(id)) {
      origins.push({ workspace_id: id.slice(0, 80), display_name: null, commit: oid, status: "refused", reason: "its ref name is not a workspace id (32 lowercase hex)", files: 0, runs: 0, folder });
      continue;
    }
    if (type !== "commit") {
      origins.push({ workspace_id: id, display_name: null, commit: oid, status: "refused", reason: `its ref names a ${type}, not a commit`, files: 0, runs: 0, folder });
      continue;
    }
    origins.push(await materialize(layout, root, remote, id, oid, clock));
  }
  return { remote, workspace_id: own, origins };
}
