// aop sync push: this workspace's records as one commit on refs/aop/records/<workspace_id> of a remote
// (DESIGN §24, docs/sync.md). One writer per ref, fast-forward only: the parent is the commit last pushed
// to that remote; a rejected push fetches the remote's commit, builds on it and tries again. Concurrent
// pushes from one clone take turns on a lock. Plumbing only: the user's branches, index and work tree are
// never read or written.
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Clock } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import { ensureDir } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { acquireLock } from "../../store/lock.js";
import { displayNameOf, ensureWorkspaceIdentity, setDisplayName, type WorkspaceIdentity } from "../../store/workspace-identity.js";
import { timelineRunIds } from "../replay/index.js";
import { collectFiles, publicKeyIds, type Skipped } from "./collect.js";
import { blobOid, hashFiles, listTree, writeTree, type TreeFile } from "./git-objects.js";
import { isTreeName, SEGMENT_LINES, segmentName, SegmentCutter, SidecarCutter } from "./record-tree.js";
import { type CachedRun, fingerprint, readSegmentCache, stillValid, writeSegmentCache } from "./segment-cache.js";
import { gitAsync, lastLines, must, refCommitTree, requireRemote, requireRepositoryWithFormat } from "./sync-git.js";

export interface PushOptions {
  remote?: string;
  /** Keep this as the workspace's display name first. */
  name?: string;
  /** Receives progress lines (one per retry). */
  note?: (message: string) => void;
}

export interface PushResult {
  remote: string;
  ref: string;
  workspace_id: string;
  display_name: string;
  /** pushed: a new commit is on the remote; up_to_date: the remote already had these records. */
  status: "pushed" | "up_to_date";
  commit: string;
  parent: string | null;
  runs: { run_id: string; entries: number; segments: number }[];
  files: number;
  /** Objects the remote did not have (blobs, trees, the commit) and their size before compression. */
  new_objects: number;
  new_bytes: number;
  /** The size of the pack git sent, as git reported it (deltas against what the remote has, compressed); null when git did not say. */
  sent_bytes: number | null;
  attempts: number;
  skipped: Skipped[];
}

export const recordsRef = (workspaceId: string) => `refs/aop/records/${workspaceId}`;
export const trackingRef = (remote: string, workspaceId: string) => `refs/aop/remotes/${remote}/${workspaceId}`;

const PUSH_ATTEMPTS = 8;
const PUSH_LOCK_TIMEOUT_MS = 120_000;
const CHUNK = 1024 * 1024;

/**
 * Streams a file through `push` in chunks, from the offset `start` picks (0 without it); `done` sees the
 * same open file afterwards. Refuses a link (never followed). False when it is absent.
 */
function streamFile(file: string, push: (chunk: Buffer) => void, start?: (fd: number, st: fs.Stats) => number, done?: (fd: number) => void): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return false;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return false;
    let at = start?.(fd, st) ?? 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let n = fs.readSync(fd, buf, 0, CHUNK, at); n > 0; n = fs.readSync(fd, buf, 0, CHUNK, at)) {
      at += n;
      push(Buffer.from(buf.subarray(0, n)));
    }
    done?.(fd);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/** The commit last pushed to the remote, and its tree. */
interface Parent {
  commit: string;
  tree: string;
}

interface Built {
  tree: string;
  runs: PushResult["runs"];
  files: number;
  skipped: Skipped[];
}

/** Writes every blob and tree of the records and returns the root tree. */
function buildTree(layout: WorkspaceLayout, root: string, format: "sha1" | "sha256", identity: WorkspaceIdentity, displayName: string, parent: Parent | null): Built {
  const before = new Map((parent === null ? [] : listTree(root, parent.commit)).map((e) => [e.path, e.oid]));
  const scratch = path.join(layout.syncDir, `segments-${process.pid}-${Date.now()}`);
  ensureDir(scratch);
  try {
    const known: TreeFile[] = [];
    const toHash: { treePath: string; file: string }[] = [];
    const put = (treePath: string, bytes: Buffer): string => {
      const oid = blobOid(bytes, format);
      if (before.get(treePath) === oid) return known.push({ treePath, oid }), oid;
      const file = path.join(scratch, String(toHash.length));
      fs.writeFileSync(file, bytes);
      toHash.push({ treePath, file });
      return oid;
    };
    const runs: PushResult["runs"] = [];
    const skipped: Skipped[] = [];
    const runIds = timelineRunIds(layout);
    const cache = readSegmentCache(layout.syncDir, format);
    const nextCache: Record<string, CachedRun> = {};
    for (const run of runIds) {
      if (!isTreeName(run)) {
        skipped.push({ path: layout.relative(layout.timelineFile(run)), reason: "its run id is not a plain name" });
        continue;
      }
      const segmentPath = (first: number, ext: boolean) => `timelines/${run}/${segmentName(first, ext)}`;
      // Cached complete segments count only when the parent already holds exactly those blobs.
      const cached = cache[run];
      const reusable = parent !== null && cached !== undefined && cached.firsts.every((f, i) => before.get(segmentPath(f, false)) === cached.oids[i]);
      let resumed: CachedRun | undefined;
      let ino = 0;
      let offset = 0;
      const complete: { first: number; oid: string; end: number }[] = [];
      let cutter: SegmentCutter | undefined;
      const read = streamFile(
        layout.timelineFile(run),
        (c) => cutter!.push(c),
        (fd, st) => {
          ino = st.ino;
          if (reusable && stillValid(fd, st, cached)) resumed = cached;
          offset = resumed?.end ?? 0;
          resumed?.firsts.forEach((f, i) => known.push({ treePath: segmentPath(f, false), oid: resumed!.oids[i]! }));
          const sink = (first: number, bytes: Buffer, lines: number) => {
            const oid = put(segmentPath(first, false), bytes);
            offset += bytes.length;
            if (lines === SEGMENT_LINES) complete.push({ first, oid, end: offset });
          };
          cutter = new SegmentCutter(sink, resumed && { firsts: resumed.firsts, lines: resumed.lines });
          return offset;
        },
        (fd) => {
          cutter!.end();
          const last = complete[complete.length - 1];
          if (last === undefined) {
            if (resumed !== undefined) nextCache[run] = resumed;
            return;
          }
          const firsts = [...(resumed?.firsts ?? []), ...complete.map((c) => c.first)];
          const oids = [...(resumed?.oids ?? []), ...complete.map((c) => c.oid)];
          nextCache[run] = { ino, end: last.end, lines: firsts.length * SEGMENT_LINES, firsts, oids, ...fingerprint(fd, last.end) };
        },
      );
      if (!read || cutter === undefined) {
        skipped.push({ path: layout.relative(layout.timelineFile(run)), reason: "not a regular file (a symbolic link is never followed)" });
        continue;
      }
      const sidecar = new SidecarCutter(cutter.firsts, (first, bytes) => put(segmentPath(first, true), bytes));
      if (streamFile(layout.timelineExt(run), (c) => sidecar.push(c))) sidecar.end();
      runs.push({ run_id: run, entries: cutter.lines, segments: cutter.firsts.length });
    }
    // Runs the remote holds but this clone no longer has (pruned: docs/sync.md "Prune") stay in the tree.
    const local = new Set(runs.map((r) => r.run_id));
    for (const [treePath, oid] of before) {
      const m = /^(?:timelines\/([^/]+)\/seg-\d{12}(?:\.ext)?\.jsonl|meta\/(.+)\.json)$/.exec(treePath);
      const run = m?.[1] ?? m?.[2];
      if (run !== undefined && !local.has(run) && !runIds.includes(run)) known.push({ treePath, oid });
    }
    const workspace = { version: 1, workspace_id: identity.workspace_id, display_name: displayName, key_ids: publicKeyIds(layout) };
    put("workspace.json", Buffer.from(JSON.stringify(workspace, null, 2) + "\n"));
    const collected = collectFiles(layout, runIds);
    skipped.push(...collected.skipped);
    const all = [...toHash, ...collected.files];
    const oids = hashFiles(root, all.map((f) => f.file));
    const files = [...known, ...all.map((f, i) => ({ treePath: f.treePath, oid: oids[i]! }))];
    // The same files as the parent: its tree, without writing a tree again.
    const unchanged = parent !== null && files.length === before.size && files.every((f) => before.get(f.treePath) === f.oid);
    const tree = unchanged ? parent.tree : writeTree(root, files, format);
    if (JSON.stringify(nextCache) !== JSON.stringify(cache)) writeSegmentCache(layout.syncDir, format, nextCache);
    return { tree, runs, files: files.length, skipped };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function commitEnv(displayName: string, workspaceId: string, clock: Clock): Record<string, string> {
  const date = `${Math.floor(clock.now() / 1000)} +0000`;
  const email = `${workspaceId}@aop.invalid`;
  return { GIT_AUTHOR_NAME: displayName, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: displayName, GIT_COMMITTER_EMAIL: email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}

function summary(runs: PushResult["runs"], files: number): string {
  const entries = runs.reduce((n, r) => n + r.entries, 0);
  return `aop records: ${runs.length} run${runs.length === 1 ? "" : "s"}, ${entries} entr${entries === 1 ? "y" : "ies"}, ${files} files`;
}

/** Objects reachable from `commit` but not from `parent`, and their sizes. */
function newObjects(root: string, commit: string, parent: string | null): { count: number; bytes: number } {
  const list = must(root, ["rev-list", "--objects", "--no-object-names", commit, ...(parent ? [`^${parent}`] : [])]);
  const sizes = must(root, ["cat-file", "--batch-check=%(objectsize)"], list);
  const values = sizes.trim().split("\n").filter(Boolean).map(Number);
  return { count: values.length, bytes: values.reduce((a, b) => a + b, 0) };
}

const UNITS: Record<string, number> = { bytes: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** The pack size from git's "Writing objects: 100% (n/n), 4.21 KiB | …" progress line (0 when none was written). Pure. */
export function packBytes(stderr: string): number | null {
  const lines = stderr.split(/[\r\n]/).filter((l) => l.includes("Writing objects: 100%"));
  if (lines.length === 0) return /Everything up-to-date|Total 0 /.test(stderr) ? 0 : null;
  const m = /, ([\d.]+) (bytes|KiB|MiB|GiB)/.exec(lines[lines.length - 1]!);
  return m === null ? null : Math.round(Number(m[1]) * UNITS[m[2]!]!);
}

type PushOutcome = { status: "ok" } | { status: "retry"; reason: string } | { status: "refused"; reason: string; messages: string[] };

/** Reads `git push --porcelain`: accepted, rejected for a reason a fetch and retry fixes, or refused by the server. */
export function readPushOutcome(status: number, stdout: string, stderr: string): PushOutcome | null {
  const line = stdout.split("\n").find((l) => /^[ +\-*=!]\t/.test(l));
  const messages = stderr
    .split("\n")
    .filter((l) => l.startsWith("remote: "))
    .map((l) => l.slice(8).trimEnd())
    .filter((l) => l !== "");
  if (line !== undefined && !line.startsWith("!")) return status === 0 ? { status: "ok" } : null;
  if (line === undefined) return null;
  const reason = /\[([^\]]+)\](?:\s*\((.*)\))?/.exec(line);
  const what = reason ? `${reason[1]}${reason[2] ? ` (${reason[2]})` : ""}` : line;
  if (/^rejected/.test(reason?.[1] ?? "") || /lock|fetch first|non-fast-forward|stale info|incorrect old value/i.test(what)) return { status: "retry", reason: what };
  return { status: "refused", reason: what, messages };
}

export async function pushRecords(layout: WorkspaceLayout, clock: Clock, options: PushOptions = {}): Promise<PushResult> {
  const root = layout.root;
  const { format } = requireRepositoryWithFormat(root);
  const remote = requireRemote(root, options.remote ?? "origin");
  let identity = (await ensureWorkspaceIdentity(layout, clock)).identity;
  if (options.name !== undefined) identity = await setDisplayName(layout, clock, options.name);
  const displayName = displayNameOf(identity);
  const id = identity.workspace_id;
  const ref = recordsRef(id);
  const tracking = trackingRef(remote, id);
  ensureDir(layout.syncDir);
  const release = await acquireLock(layout.lockFor(path.join(layout.syncDir, "push")), { timeoutMs: PUSH_LOCK_TIMEOUT_MS });
  try {
    let last = refCommitTree(root, tracking);
    const built = buildTree(layout, root, format, identity, displayName, last);
    const env = commitEnv(displayName, id, clock);
    for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
      const base = { remote, ref, workspace_id: id, display_name: displayName, runs: built.runs, files: built.files, attempts: attempt, skipped: built.skipped };
      const parent = last?.commit ?? null;
      if (last !== null && last.tree === built.tree) {
        return { ...base, status: "up_to_date", commit: last.commit, parent: last.commit, new_objects: 0, new_bytes: 0, sent_bytes: 0 };
      }
      const args = ["commit-tree", built.tree, ...(parent ? ["-p", parent] : []), "-m", summary(built.runs, built.files)];
      const commit = must(root, args, "", env).trim();
      const sent = newObjects(root, commit, parent);
      const pushArgs = ["push", "--porcelain", "--progress", "--no-verify", remote, `${commit}:${ref}`];
      const r = await gitAsync(root, pushArgs);
      const outcome = readPushOutcome(r.status, r.stdout, r.stderr);
      // The local ref names what this clone built last (a reader of this repository finds it there); after
      // an accepted push it moves in the same git run as the tracking ref.
      if (outcome?.status === "ok") {
        must(root, ["update-ref", "-m", "aop sync push", "--stdin"], `update ${ref} ${commit}\nupdate ${tracking} ${commit}\n`);
        return { ...base, status: "pushed", commit, parent, new_objects: sent.count, new_bytes: sent.bytes, sent_bytes: packBytes(r.stderr) };
      }
      must(root, ["update-ref", "-m", "aop sync push", ref, commit]);
      if (outcome?.status === "refused") {
        const said = outcome.messages.length > 0 ? `: ${outcome.messages.join(" / ")}` : "";
        throw new AopError("sync_ref_refused", `${remote} refused ${ref} (${outcome.reason})${said}`, {
          details: { remote, ref, reason: outcome.reason, server_messages: outcome.messages },
          hint: "the server does not accept custom refs under refs/aop/; ask its administrator to allow refs/aop/* (or push to another remote)",
        });
      }
      if (outcome === null) {
        throw new AopError("sync_git_failed", `git push to ${remote} failed: ${lastLines(r.stderr) || `exit ${r.status}`}`, {
          details: { remote, ref },
          hint: "check that the remote is reachable (`git ls-remote REMOTE`) and run the command again",
        });
      }
      options.note?.(`push to ${remote} was rejected (${outcome.reason}); fetching its ${ref} and trying again`);
      const fetched = await gitAsync(root, ["fetch", "--no-tags", "--no-write-fetch-head", remote, `+${ref}:${tracking}`]);
      // A ref that vanished on the remote (or a failed fetch) leaves the parent as it was: the retry says why.
      if (fetched.status === 0) last = refCommitTree(root, tracking);
      await sleep(Math.min(50 * 2 ** attempt, 1_000) * Math.random());
    }
    throw new AopError("sync_git_failed", `${remote} kept rejecting ${ref} (${PUSH_ATTEMPTS} attempts)`, { hint: "run `aop sync push` again" });
  } finally {
    release();
  }
}

