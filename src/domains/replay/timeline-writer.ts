// Appends timeline entries with gap-free per-run sequences across processes. Within a process an
// in-memory queue keeps completion order; across processes the run's lock allocates sequences.
// The lock is kept while this process has entries to write (bounded by MAX_HOLD_MS) so a burst costs
// one lock cycle, and the file state is re-read (from the meta cache and the file's tail) on every acquire.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import { writeJsonAtomic, ensureDir } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { defaultFileMode } from "../../store/layout.js";
import { acquireLock, type ReleaseLock } from "../../store/lock.js";
import { crashPoint } from "../../store/crash-points.js";
import { serializeEntry, type EntryWithoutSequence } from "./timeline-entry.js";
import { noteEntry, type TimelineMeta } from "./timeline-meta.js";
import { catchUp, readMetaFile } from "./timeline-scan.js";
import { readSpool } from "./timeline-spool.js";

const MAX_HOLD_MS = 20;

export interface AppendOutcome {
  /** The sequence written, or null when the entry was dropped by max_entries_per_run. */
  sequence: number | null;
}

interface Pending {
  entry: EntryWithoutSequence;
  resolve(outcome: AppendOutcome): void;
  reject(err: unknown): void;
}

class RunWriter {
  private readonly file: string;
  private readonly lockPath: string;
  private queue: Pending[] = [];
  private draining = false;
  private release: ReleaseLock | null = null;
  private heldSince = 0;
  private fd: number | null = null;
  private meta: TimelineMeta | null = null;
  private metaDirty = false;
  private releaseScheduled = false;
  /** True when this process created the run's timeline (the caller then applies run retention). */
  createdRun = false;

  constructor(
    private readonly layout: WorkspaceLayout,
    readonly runId: string,
    private readonly maxEntries: () => number,
  ) {
    this.file = layout.timelineFile(runId);
    this.lockPath = layout.lockFor(this.file);
  }

  append(entry: EntryWithoutSequence): Promise<AppendOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        if (!this.release) await this.acquire();
        else if (performance.now() - this.heldSince > MAX_HOLD_MS) {
          this.releaseNow(); // let other processes in, then take it back
          continue;
        }
        const item = this.queue.shift()!;
        try {
          item.resolve(this.writeOne(item.entry));
        } catch (err) {
          this.dropState();
          item.reject(err);
        }
      }
    } catch (err) {
      // Could not acquire the lock or sync the file: fail everything queued, keep nothing half-known.
      const failed = this.queue.splice(0);
      this.dropState();
      for (const item of failed) item.reject(err);
    } finally {
      this.draining = false;
    }
    this.scheduleRelease();
  }

  private async acquire(): Promise<void> {
    ensureDir(this.layout.replayDir);
    this.release = await acquireLock(this.lockPath);
    this.heldSince = performance.now();
    try {
      await this.sync();
      this.drainSpool();
    } catch (err) {
      this.releaseNow();
      throw err;
    }
  }

  /** Append what other processes spooled for this run, before anything queued here. */
  private drainSpool(): void {
    for (const spooled of readSpool(this.layout, this.runId)) {
      if (spooled.entry) this.writeOne(spooled.entry);
      else this.meta!.spool_rejected += 1;
      fs.rmSync(spooled.file, { force: true });
      this.metaDirty = true;
    }
  }

  /** Take the lock once (appending any spooled entries) and give it back. */
  async flush(): Promise<void> {
    if (!this.release) {
      await this.acquire();
      this.scheduleRelease();
    }
  }

  /** Bring `meta` in line with the file: the file is the truth, the meta file a cache. */
  private async sync(): Promise<void> {
    const stat = fs.statSync(this.file, { throwIfNoEntry: false });
    const size = stat?.size ?? 0;
    if (this.meta && this.meta.file_size === size) return;
    const known = this.meta ?? readMetaFile(this.layout, this.runId);
    if (!stat) this.createdRun = true;
    const { meta, tornTail } = await catchUp(this.file, this.runId, known && known.file_size <= size ? known : null, size);
    this.meta = meta;
    if (tornTail) {
      // A writer died mid-line: end that line so ours starts on a fresh one. The fragment stays in
      // the file (readers skip and count it); its sequence was never recorded, so it is reused.
      this.openFd();
      fs.writeSync(this.fd!, "\n");
      meta.skipped_lines += 1;
      meta.repaired_torn_lines += 1;
      meta.file_size = fs.fstatSync(this.fd!).size;
    }
    this.metaDirty = this.metaDirty || known === null || known.file_size !== meta.file_size;
  }

  private openFd(): void {
    if (this.fd === null) this.fd = fs.openSync(this.file, "a", defaultFileMode(this.file));
  }

  private writeOne(entry: EntryWithoutSequence): AppendOutcome {
    const meta = this.meta!;
    if (meta.sequence_head + 1 >= this.maxEntries()) {
      meta.dropped_entries += 1;
      meta.first_dropped_at ??= entry.ts;
      meta.last_dropped_at = entry.ts;
      this.flushMeta(); // drops are never left only in memory
      return { sequence: null };
    }
    const sequence = meta.sequence_head + 1;
    const line = serializeEntry(entry, sequence);
    this.openFd();
    const bytes = Buffer.byteLength(line);
    const written = fs.writeSync(this.fd!, line);
    if (written !== bytes) throw new AopError("replay_timeline_write_failed", `short write to ${this.layout.relative(this.file)} (${written} of ${bytes} bytes)`);
    crashPoint("timeline:after-append", this.file);
    noteEntry(meta, { sequence, ts: entry.ts, result: entry.result }, meta.file_size);
    meta.file_size += bytes;
    this.metaDirty = true;
    return { sequence };
  }

  private flushMeta(): void {
    if (!this.meta) return;
    writeJsonAtomic(this.layout.timelineMeta(this.runId), this.meta, { durable: false });
    this.metaDirty = false;
  }

  private scheduleRelease(): void {
    if (this.releaseScheduled || !this.release) return;
    this.releaseScheduled = true;
    // Released once the event loop has nothing more for us: a caller awaiting appends one after
    // another keeps the lock (bounded by MAX_HOLD_MS) instead of paying a lock cycle per entry.
    setImmediate(() => {
      this.releaseScheduled = false;
      if (!this.draining && this.queue.length === 0) this.releaseNow();
    });
  }

  releaseNow(): void {
    if (!this.release) return;
    try {
      if (this.metaDirty) this.flushMeta();
    } finally {
      const release = this.release;
      this.release = null;
      release();
    }
  }

  private dropState(): void {
    this.meta = null;
    this.metaDirty = false;
    this.closeFd();
  }

  closeFd(): void {
    if (this.fd !== null) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = null;
    }
  }
}

// Writers alive in this process; on exit their locks are released and metas flushed.
const liveWriters = new Set<TimelineWriter>();
let exitHooked = false;

/** One writer per workspace and run in this process. */
export class TimelineWriter {
  private readonly runs = new Map<string, RunWriter>();

  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly maxEntriesPerRun: () => number,
  ) {}

  async append(entry: EntryWithoutSequence): Promise<AppendOutcome & { createdRun: boolean }> {
    let writer = this.runs.get(entry.run_id);
    if (!writer) {
      writer = new RunWriter(this.layout, entry.run_id, this.maxEntriesPerRun);
      this.runs.set(entry.run_id, writer);
      this.hookExit();
    }
    const outcome = await writer.append(entry);
    const createdRun = writer.createdRun;
    writer.createdRun = false;
    return { ...outcome, createdRun };
  }

  /** Append the run's spooled entries now (taking and releasing its lock). */
  async flush(runId: string): Promise<{ createdRun: boolean }> {
    let writer = this.runs.get(runId);
    if (!writer) {
      writer = new RunWriter(this.layout, runId, this.maxEntriesPerRun);
      this.runs.set(runId, writer);
      this.hookExit();
    }
    await writer.flush();
    const createdRun = writer.createdRun;
    writer.createdRun = false;
    return { createdRun };
  }

  /** Release every lock and flush metas now (also done automatically when the process exits). */
  close(): void {
    for (const writer of this.runs.values()) {
      writer.releaseNow();
      writer.closeFd();
    }
  }

  private hookExit(): void {
    liveWriters.add(this);
    if (exitHooked) return;
    exitHooked = true;
    process.once("exit", () => {
      for (const writer of liveWriters) writer.close();
    });
  }
}
