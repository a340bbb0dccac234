// aop sync prune: drop local timelines the remote already holds in full and that are older than the
// retention age (docs/sync.md "Prune"): the remote's history is the archive. Only whole runs go (a live
// timeline is never cut), never a run with an entry the remote lacks, never a run a lease names, and each
// one is counted in replay/retention.json like every other pruned run.
import fs from "node:fs";
import { isoUtc, type Clock } from "../../core/clock.js";
import { removeFile, writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { ensureWorkspaceIdentity } from "../../store/workspace-identity.js";
import { readRetention, timelineRunIds } from "../replay/index.js";
import { readLeaseFiles } from "../runs/index.js";
import { countFileLines, pushedEntries } from "./status.js";
import { must, requireRepository } from "./sync-git.js";

/** The default age, the same as the idempotency ledger's `max_age_days` default. */
const DEFAULT_PRUNE_DAYS = 30;

interface PrunedRun {
  run_id: string;
  entries: number;
  /** The remote whose pushed commit holds every entry. */
  remote: string;
}

export interface PruneResult {
  older_than_days: number;
  dry_run: boolean;
  pruned: PrunedRun[];
  /** Runs kept, and why (unpushed entries, too recent, leased). */
  kept: { run_id: string; reason: string }[];
}

function endsWithNewline(file: string): boolean {
  try {
    const fd = fs.openSync(file, "r");
    try {
      const size = fs.fstatSync(fd).size;
      if (size === 0) return true;
      const b = Buffer.alloc(1);
      fs.readSync(fd, b, 0, 1, size - 1);
      return b[0] === 10;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

export async function pruneRecords(layout: WorkspaceLayout, clock: Clock, options: { olderThanDays?: number; dryRun?: boolean } = {}): Promise<PruneResult> {
  const root = layout.root;
  requireRepository(root);
  const days = options.olderThanDays ?? DEFAULT_PRUNE_DAYS;
  const id = (await ensureWorkspaceIdentity(layout, clock)).identity.workspace_id;
  // Every remote this workspace pushed to: a run held in full by any of them may go.
  const pushed = must(root, ["for-each-ref", "--format=%(refname)", "refs/aop/remotes/"])
    .trim()
    .split("\n")
    .filter((r) => r.endsWith(`/${id}`))
    .map((ref) => ({ remote: ref.slice("refs/aop/remotes/".length, -(id.length + 1)), counts: pushedEntries(root, ref) }));
  const leased = new Set(readLeaseFiles(layout).flatMap((l) => (l.lease ? [l.lease.run_id] : [])));
  const cutoff = clock.now() - days * 86_400_000;
  const result: PruneResult = { older_than_days: days, dry_run: options.dryRun === true, pruned: [], kept: [] };
  for (const run of timelineRunIds(layout)) {
    const file = layout.timelineFile(run);
    const local = countFileLines(file);
    const holder = pushed.find((p) => p.counts.get(run) === local && endsWithNewline(file));
    if (holder === undefined) {
      result.kept.push({ run_id: run, reason: "has entries no remote holds (push first)" });
      continue;
    }
    if (leased.has(run)) {
      result.kept.push({ run_id: run, reason: "a run lease names it" });
      continue;
    }
    let mtime = Infinity;
    try {
      mtime = Math.max(fs.statSync(file).mtimeMs, fs.existsSync(layout.timelineExt(run)) ? fs.statSync(layout.timelineExt(run)).mtimeMs : 0);
    } catch {
      // gone meanwhile: kept (nothing to do)
    }
    if (mtime > cutoff) {
      result.kept.push({ run_id: run, reason: `written to within the last ${days} days` });
      continue;
    }
    result.pruned.push({ run_id: run, entries: local, remote: holder.remote });
  }
  if (result.dry_run || result.pruned.length === 0) return result;
  const now = isoUtc(clock.now());
  await withLock(layout.lockFor(layout.replayRetentionFile), async () => {
    const record = readRetention(layout);
    for (const run of [...result.pruned]) {
      const removed = await withLock(layout.lockFor(layout.timelineFile(run.run_id)), () => {
        // Checked again under the run's lock: an entry appended since means it stays.
        if (countFileLines(layout.timelineFile(run.run_id)) !== run.entries) return false;
        removeFile(layout.timelineFile(run.run_id));
        removeFile(layout.timelineExt(run.run_id));
        removeFile(layout.timelineMeta(run.run_id));
        removeFile(layout.hookSessionState(run.run_id));
        return true;
      });
      if (!removed) {
        result.pruned = result.pruned.filter((p) => p !== run);
        result.kept.push({ run_id: run.run_id, reason: "has entries no remote holds (push first)" });
        continue;
      }
      record.pruned_runs += 1;
      record.pruned_entries += run.entries;
      record.last_pruned_at = now;
      record.recent.unshift({ run_id: run.run_id, entries: run.entries, started_at: null, pruned_at: now });
    }
    record.recent = record.recent.slice(0, 50);
    writeJsonAtomic(layout.replayRetentionFile, record);
  });
  return result;
}
