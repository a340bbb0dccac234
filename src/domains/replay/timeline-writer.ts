// Appends timeline entries with gap-free per-run sequences across processes. Within a process an
// in-memory queue keeps completion order; across processes the run's lock allocates sequences.
// The lock is kept while this process has entries to write (bounded by MAX_HOLD_MS) so a burst costs
// one lock cycle, and the file state is re-read (from the meta cache and the file's tail) on every acquire.
// An entry's extras go to the run's sidecar (<run_id>.ext.jsonl, DESIGN §21), appended after its line
// under the same lock: a writer killed between the two leaves a line without extras, never extras
// without their line.
import fs from "node:fs";
import { ensureDir, openForWriting, removeFile, writeAll, writeFileAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { defaultFileMode } from "../../store/layout.js";
import { acquireLock, type ReleaseLock } from "../../store/lock.js";
import { monotonicMs } from "../../core/clock.js";
import { isAopError } from "../../core/errors.js";
import { crashPoint } from "../../store/crash-points.js";
import { sameFile } from "../../store/same-file.js";
import { extrasOf, serializeEntry, serializeExt, type EntryWithoutSequence } from "./timeline-entry.js";
import { noteEntry, serializeMeta, type TimelineMeta } from "./timeline-meta.js";
import { catchUp, trustedMeta } from "./timeline-scan.js";
import { readSpool, removeSpoolDirIfEmpty } from "./timeline-spool.js";

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
  private readonly extFile: string;
  private readonly lockPath: string;
  private queue: Pending[] = [];
  private draining = false;
  private release: ReleaseLock | null = null;
  private heldSince = 0;
  private fd: number | null = null;
  private extFd: number | null = null;
  /** The sidecar's last line is known to be complete (checked once per hold). */
  private extChecked = false;
  private meta: TimelineMeta | null = null;
  private metaDirty = false;
  private releaseScheduled = false;
  /** True when this process created the run's timeline (the caller then applies run retention). */
  createdRun = false;

  constructor(
    private readonly layout: WorkspaceLayout,
    readonly runId: string,
    private readonly maxEntries: () => number,
    private readonly warn: (message: string) => void,
  ) {
    this.file = layout.timelineFile(runId);
    this.extFile = layout.timelineExt(runId);
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
        else if (monotonicMs() - this.heldSince > MAX_HOLD_MS) {
          this.releaseNow(); // let other processes in, then take it back
          continue;
        }
        const item = this.queue.shift()!;
        try {
          item.resolve(this.writeOne(item.entry));
        } catch (err) {
          // The file may now end mid-line and the meta no longer matches it: forget both and give the
          // lock back; the next entry starts over from the file (which terminates a torn line).
          this.abandon();
          item.reject(err);
        }
      }
    } catch (err) {
      // Could not acquire the lock or sync the file: fail everything queued, keep nothing half-known.
      const failed = this.queue.splice(0);
      this.abandon();
      for (const item of failed) item.reject(err);
    } finally {
      this.draining = false;
    }
    this.scheduleRelease();
  }

  /**
   * Appends `entry` (behind what the spool holds) when the run's lock can be taken without waiting;
   * null, with nothing written, while another process holds it.
   */
  async appendIfUnlocked(entry: EntryWithoutSequence): Promise<AppendOutcome | null> {
    if (!this.release && !this.draining) {
      try {
        await this.acquire(0);
      } catch (err) {
        if (isAopError(err) && err.code === "lock_timeout") return null;
        throw err;
      }
    }
    return this.append(entry);
  }

  private async acquire(timeoutMs?: number): Promise<void> {
    // Creates the replay folder when missing, never the workspace (workspace_not_found: see ensureDir).
    ensureDir(this.layout.replayDir);
    this.release = await acquireLock(this.lockPath, timeoutMs === undefined ? {} : { timeoutMs });
    this.heldSince = monotonicMs();
    try {
      await this.sync();
      this.drainSpool();
    } catch (err) {
      this.abandon();
      throw err;
    }
  }

  /** Append what other processes spooled for this run, before anything queued here; an empty spool folder goes. */
  private drainSpool(): void {
    const spooled = readSpool(this.layout, this.runId);
    for (const item of spooled) {
      if (item.entry) this.writeOne(item.entry);
      else this.meta!.spool_rejected += 1;
      removeFile(item.file);
      this.metaDirty = true;
    }
    if (spooled.length > 0) removeSpoolDirIfEmpty(this.layout, this.runId);
  }

  /** After a failure: forget what was known of the file and give the lock back without writing the meta. */
  private abandon(): void {
    this.dropState();
    const release = this.release;
    this.release = null;
    release?.();
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
    if (this.fd !== null && (!stat || !sameFile(stat, fs.fstatSync(this.fd)))) {
      // The timeline was removed (or replaced) since our last hold: our descriptor and what we knew
      // describe a file no reader will see again. Start from what is on disk now.
      this.dropState();
    }
    const size = stat?.size ?? 0;
    if (this.meta && this.meta.file_size === size) return;
    // Our own meta from the last hold is exact; one read from disk is used only when it matches the file
    // (a poisoned sequence_head, a meta of another file or one with only the contract's fields is rebuilt).
    const known = this.meta ?? (stat ? trustedMeta(this.layout, this.runId) : null);
    if (!stat) this.createdRun = true;
    const { meta, tornTail } = await catchUp(this.file, this.runId, known && known.file_size <= size ? known : null, size);
    this.meta = meta;
    if (tornTail) {
      // A writer died mid-line: end that line so ours starts on a fresh one. The fragment stays in
      // the file (readers skip and count it); its sequence was never recorded, so it is reused.
      this.openFd();
      writeAll(this.fd!, "\n", this.file);
      meta.skipped_lines += 1;
      meta.repaired_torn_lines += 1;
      meta.file_size = fs.fstatSync(this.fd!).size;
    }
    this.metaDirty = this.metaDirty || known === null || known.file_size !== meta.file_size;
  }

  private openFd(): void {
    if (this.fd === null) this.fd = openForWriting(this.file, "append", defaultFileMode(this.file));
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
    // A write cut short (a full disk) leaves a torn line: the caller abandons its state and the next
    // acquire terminates that line; the sequence is reused.
    writeAll(this.fd!, line, this.file);
    crashPoint("timeline:after-append", this.file);
    noteEntry(meta, { sequence, ts: entry.ts, result: entry.result }, meta.file_size);
    meta.file_size += bytes;
    this.metaDirty = true;
    const extras = extrasOf(entry);
    if (extras) this.writeExt(sequence, extras);
    return { sequence };
  }

  /**
   * The entry's extras, after its line. A failure here loses the extras, never the entry (already
   * written): it is reported, and the next hold starts the sidecar on a fresh line.
   */
  private writeExt(sequence: number, extras: NonNullable<ReturnType<typeof extrasOf>>): void {
    try {
      if (this.extFd === null) this.extFd = openForWriting(this.extFile, "append", defaultFileMode(this.extFile));
      if (!this.extChecked) {
        // A writer killed mid-line left a torn sidecar line: end it so ours is readable.
        if (!endsWithNewline(this.extFile, fs.fstatSync(this.extFd).size)) writeAll(this.extFd, "\n", this.extFile);
        this.extChecked = true;
      }
      writeAll(this.extFd, serializeExt(sequence, extras), this.extFile);
    } catch (err) {
      this.closeExt();
      this.warn(`could not write the extras of sequence ${sequence} of run ${this.runId} to its sidecar (the entry is recorded without them): ${(err as Error).message}`);
    }
  }

  private closeExt(): void {
    if (this.extFd !== null) {
      try {
        fs.closeSync(this.extFd);
      } catch {
        // already closed
      }
      this.extFd = null;
    }
    this.extChecked = false;
  }

  /** Write the meta cache. It is only a cache (rebuilt from the timeline), so a failed write is reported, never fatal. */
  private flushMeta(): void {
    if (!this.meta) return;
    this.metaDirty = false;
    // A cache of a timeline that is gone (its folder removed before this process exits) is not written:
    // the write would create the folders again.
    if (!fs.existsSync(this.file)) return;
    try {
      writeFileAtomic(this.layout.timelineMeta(this.runId), serializeMeta(this.meta), { durable: false });
    } catch (err) {
      this.warn(`could not write the timeline meta of run ${this.runId} (rebuilt from the timeline next time): ${(err as Error).message}`);
    }
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
    } catch {
      // The meta is a cache (docs/replay.md): entries already in the file are recorded whatever happens
      // to it. It stays dirty, so a later release writes it; a reader or the next writer rebuilds it
      // from the file. (This runs from setImmediate too, where a throw would end the process.)
    } finally {
      this.closeExt(); // another process may append to the sidecar before our next hold
      const release = this.release;
      this.release = null;
      release();
    }
  }

  private dropState(): void {
    this.meta = null;
    this.metaDirty = false;
    this.closeFd();
    this.closeExt();
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

/** Whether the file (just opened for appending, so a regular file inside the workspace) is empty or ends a line. */
function endsWithNewline(file: string, size: number): boolean {
  if (size === 0) return true;
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const last = Buffer.alloc(1);
    return fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
  } finally {
    fs.closeSync(fd);
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
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  private writerOf(runId: string): RunWriter {
    let writer = this.runs.get(runId);
    if (!writer) {
      writer = new RunWriter(this.layout, runId, this.maxEntriesPerRun, this.warn);
      this.runs.set(runId, writer);
      this.hookExit();
    }
    return writer;
  }

  async append(entry: EntryWithoutSequence): Promise<AppendOutcome & { createdRun: boolean }> {
    const writer = this.writerOf(entry.run_id);
    const outcome = await writer.append(entry);
    const createdRun = writer.createdRun;
    writer.createdRun = false;
    return { ...outcome, createdRun };
  }

  /** append, when no other process holds the run's lock; null (nothing written) when one does. */
  async appendIfUnlocked(entry: EntryWithoutSequence): Promise<(AppendOutcome & { createdRun: boolean }) | null> {
    const writer = this.writerOf(entry.run_id);
    const outcome = await writer.appendIfUnlocked(entry);
    if (outcome === null) return null;
    const createdRun = writer.createdRun;
    writer.createdRun = false;
    return { ...outcome, createdRun };
  }

  /** Append the run's spooled entries now (taking and releasing its lock). */
  async flush(runId: string): Promise<{ createdRun: boolean }> {
    const writer = this.writerOf(runId);
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
