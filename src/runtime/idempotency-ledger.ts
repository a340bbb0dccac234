// The idempotency ledger as the pipeline uses it (docs/kernel.md): a lookup under the operation's lock, an
// intent written before the handler runs, the handler's effects noted in it, the final envelope recorded
// after. A retry that finds an intent instead of a record learns from the noted effects what had landed.
import path from "node:path";
import type { WorkspaceLayout } from "../store/layout.js";
import { acquireLock } from "../store/lock.js";
import { effectPath, effectState, type EffectNote, type EffectState } from "../store/effect-journal.js";
import { IntentJournal, readLedgerEntry, recordPath, removeIntent, writeRecord, ledgerKey, type LedgerEntry, type LedgerRecord, type OperationIntent } from "../store/ledger-files.js";
import { pruneStepDue, pruneLedgerBucket, type LedgerRetention } from "../store/ledger-retention.js";
import { crashPoint } from "../store/crash-points.js";
import { removeFile } from "../store/atomic-write.js";

export type { LedgerRecord, OperationIntent };

/** One noted effect of an interrupted call and whether it reached the disk. */
interface AssessedEffect {
  kind: EffectNote["kind"];
  /** Workspace-relative path of the file concerned. */
  path: string;
  state: EffectState;
  note: EffectNote;
}

export interface InterruptedCall {
  intent: OperationIntent;
  effects: AssessedEffect[];
  /** True when no effect landed: running the call again applies it once. */
  nothingLanded: boolean;
}

export class IdempotencyLedger {
  constructor(private readonly layout: WorkspaceLayout) {}

  /**
   * Hold the operation's lock while `fn` looks up and possibly executes, so two processes racing on the
   * same new id run the handler once: the second waits, then finds the record and replays it.
   */
  async exclusive<T>(operationId: string, fn: (entry: LedgerEntry) => Promise<T>): Promise<T> {
    // Held while the handler runs (a gate can take minutes): never reclaimed by age, only when its holder
    // process is gone; a racing caller waits as long as the first one works.
    const release = await acquireLock(this.layout.lockFor(recordPath(this.layout, operationId)), { timeoutMs: 6 * 3600_000, staleMs: Infinity });
    try {
      const entry = readLedgerEntry(this.layout, operationId);
      // A crash between the record and the intent's removal leaves both: the record is the truth.
      if (entry.kind === "record") removeIntent(this.layout, operationId);
      return await fn(entry);
    } finally {
      release();
    }
  }

  /** What an interrupted call's noted effects show, file by file, now. */
  assess(entry: Extract<LedgerEntry, { kind: "intent" }>): InterruptedCall {
    const effects: AssessedEffect[] = entry.effects.map((note) => {
      const inside = this.inside(note);
      // A note naming a file outside the workspace was not written by us: never read, never trusted.
      return { kind: note.kind, path: this.layout.relative(effectPath(note)), state: inside ? effectState(note) : "changed_since", note };
    });
    return { intent: entry.intent, effects, nothingLanded: effects.every((e) => e.state === "not_applied") };
  }

  /** Forget an interrupted call that changed nothing, with the scratch files (step logs) it left. */
  discard(call: InterruptedCall): void {
    for (const effect of call.effects) if (effect.kind === "scratch" && this.inside(effect.note)) removeFile(effectPath(effect.note));
    removeIntent(this.layout, call.intent.operation_id);
  }

  private inside(note: EffectNote): boolean {
    const paths = note.kind === "move" ? [note.from, note.to] : [note.path];
    return paths.every((p) => typeof p === "string" && path.isAbsolute(p) && this.layout.resolveInside(path.relative(this.layout.root, p)) !== null);
  }

  begin(intent: Omit<OperationIntent, "pid" | "hostname">, options: { continuing?: boolean } = {}): IntentJournal {
    return IntentJournal.open(this.layout, intent, { continuing: options.continuing ?? false });
  }

  /** Record the final envelope, then drop the intent (a record without an intent is the settled state). */
  record(record: LedgerRecord, retention: LedgerRetention): void {
    crashPoint("ledger:before-record", record.operation_id);
    writeRecord(this.layout, record);
    crashPoint("ledger:after-record", record.operation_id);
    removeIntent(this.layout, record.operation_id);
    const key = ledgerKey(record.operation_id);
    if (!pruneStepDue(key)) return;
    try {
      pruneLedgerBucket(this.layout, key.slice(0, 2), retention, Date.now(), key);
    } catch {
      // Retention is housekeeping: a failed step is retried by a later record in the same folder.
    }
  }
}
