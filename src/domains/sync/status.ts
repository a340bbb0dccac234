// aop sync status: what of this workspace is only local and what is on the remote (per run: entries here
// vs entries pushed), which origins were pulled and when, and how far each is behind the remote's ref.
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "../../core/clock.js";
import { isoUtc } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { ensureWorkspaceIdentity } from "../../store/workspace-identity.js";
import { timelineRunIds } from "../replay/index.js";
import { listTree } from "./git-objects.js";
import { readOriginFile } from "./pull.js";
import { recordsRef, trackingRef } from "./push.js";
import { countLines, SEGMENT_LINES } from "./record-tree.js";
import { checkRemoteName, git, gitAsync, must, refCommit, remoteNames, requireRemote, requireRepository } from "./sync-git.js";

interface RunSyncState {
  run_id: string;
  local_entries: number;
  pushed_entries: number;
}

interface OriginState {
  workspace_id: string;
  display_name: string | null;
  pulled_commit: string | null;
  pulled_at: string | null;
  remote_commit: string | null;
  /** Commits the pulled copy is behind the remote's ref; null when that cannot be told (not fetched yet). */
  behind: number | null;
}

export interface SyncStatus {
  remote: string;
  /**
   * Whether the repository has this remote. A repository with no remote at all is shown, not refused:
   * every record is local only (one with other remotes refuses a name it lacks, which may be a typo).
   */
  remote_configured: boolean;
  workspace_id: string;
  ref: string;
  pushed_commit: string | null;
  pushed_at: string | null;
  /** Whether the remote's ref could be read now (false: --offline, or unreachable). */
  remote_checked: boolean;
  remote_commit: string | null;
  runs: RunSyncState[];
  origins: OriginState[];
}

/** Complete lines of a file, streamed. */
export function countFileLines(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return 0;
  }
  try {
    const buf = Buffer.allocUnsafe(1024 * 1024);
    let n = 0;
    for (let got = fs.readSync(fd, buf, 0, buf.length, null); got > 0; got = fs.readSync(fd, buf, 0, buf.length, null)) n += countLines(buf.subarray(0, got));
    return n;
  } finally {
    fs.closeSync(fd);
  }
}

/** Entries per run in a commit this workspace pushed: every segment but the last holds SEGMENT_LINES. */
export function pushedEntries(root: string, commit: string): Map<string, number> {
  const byRun = new Map<string, { segments: number; last: string }>();
  for (const e of listTree(root, commit)) {
    const m = /^timelines\/([^/]+)\/seg-\d{12}\.jsonl$/.exec(e.path);
    if (m === null) continue;
    const run = byRun.get(m[1]!) ?? { segments: 0, last: e.oid };
    byRun.set(m[1]!, { segments: run.segments + 1, last: e.oid }); // tree order: the last one listed is the newest
  }
  const counts = new Map<string, number>();
  for (const [run, { segments, last }] of byRun) {
    const text = must(root, ["cat-file", "blob", last]);
    let lines = 0;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
    counts.set(run, (segments - 1) * SEGMENT_LINES + lines);
  }
  return counts;
}

export async function syncStatus(layout: WorkspaceLayout, clock: Clock, options: { remote?: string; offline?: boolean } = {}): Promise<SyncStatus> {
  const root = layout.root;
  requireRepository(root);
  const name = options.remote ?? "origin";
  const known = remoteNames(root);
  const remoteless = known.length === 0;
  const remote = remoteless ? checkRemoteName(name) : requireRemote(root, name, known);
  const id = (await ensureWorkspaceIdentity(layout, clock)).identity.workspace_id;
  const pushed = refCommit(root, trackingRef(remote, id));
  const pushedCounts = pushed === null ? new Map<string, number>() : pushedEntries(root, pushed);
  const runs = timelineRunIds(layout).map((run) => ({ run_id: run, local_entries: countFileLines(layout.timelineFile(run)), pushed_entries: pushedCounts.get(run) ?? 0 }));
  for (const [run, n] of pushedCounts) if (!runs.some((r) => r.run_id === run)) runs.push({ run_id: run, local_entries: 0, pushed_entries: n });
  // The remote's refs now, unless offline: then what the last fetch or push saw.
  let remoteTips: Map<string, string> | null = null;
  if (options.offline !== true && !remoteless) {
    const ls = await gitAsync(root, ["ls-remote", remote, "refs/aop/records/*"]);
    if (ls.status === 0) {
      remoteTips = new Map(
        ls.stdout
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => l.split("\t") as [string, string])
          .map(([oid, ref]) => [ref.slice("refs/aop/records/".length), oid]),
      );
    }
  }
  const tip = (wid: string) => (remoteTips !== null ? (remoteTips.get(wid) ?? null) : refCommit(root, trackingRef(remote, wid)));
  const origins: OriginState[] = [];
  const dir = layout.remoteFolder(remote);
  const ids = new Set<string>();
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
    const origin = readOriginFile(path.join(dir, name));
    if (origin === null || origin.workspace_id !== name) continue;
    ids.add(name);
    origins.push({ workspace_id: name, display_name: origin.display_name, pulled_commit: origin.commit, pulled_at: origin.pulled_at, remote_commit: tip(name), behind: null });
  }
  for (const wid of remoteTips?.keys() ?? []) {
    if (wid !== id && !ids.has(wid)) origins.push({ workspace_id: wid, display_name: null, pulled_commit: null, pulled_at: null, remote_commit: remoteTips!.get(wid)!, behind: null });
  }
  for (const o of origins) o.behind = behindBy(root, o.pulled_commit, o.remote_commit);
  const pushedAt = pushed === null ? null : isoUtc(Number(must(root, ["show", "-s", "--format=%ct", pushed]).trim()) * 1000);
  return { remote, remote_configured: !remoteless, workspace_id: id, ref: recordsRef(id), pushed_commit: pushed, pushed_at: pushedAt, remote_checked: remoteTips !== null, remote_commit: tip(id), runs, origins };
}

/** Commits from `from` to `to`; 0 when equal, null when `to` is not here (not fetched) or unrelated. */
function behindBy(root: string, from: string | null, to: string | null): number | null {
  if (to === null) return 0;
  if (from === to) return 0;
  const r = git(root, ["rev-list", "--count", from === null ? to : `${from}..${to}`]);
  return r.status === 0 ? Number(r.stdout.trim()) : null;
}
