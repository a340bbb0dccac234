// The idempotency ledger: one small file per operation id under .aop/runtime/operation-ledger/, so a
// lookup is one read and a record is one atomic write, whatever the ledger's size. See docs/kernel.md.
import { AopError } from "../core/errors.js";
import { sha256Hex } from "../core/hash.js";
import { writeJsonAtomic } from "../store/atomic-write.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { acquireLock } from "../store/lock.js";
import { readTextOrNull } from "../store/file-hash.js";
import { READ_LIMITS } from "../store/read-limits.js";

export interface LedgerRecord {
  operation_id: string;
  tool_name: string;
  request_hash: string;
  run_id: string;
  recorded_at: string;
  /** The final envelope exactly as returned the first time; replays return these bytes. */
  envelope_json: string;
}

export class IdempotencyLedger {
  constructor(private readonly layout: WorkspaceLayout) {}

  fileFor(operationId: string): string {
    return this.layout.ledgerRecord(sha256Hex(operationId));
  }

  read(operationId: string): LedgerRecord | null {
    const file = this.fileFor(operationId);
    const text = readTextOrNull(file, READ_LIMITS.ledgerRecord);
    if (text === null) return null;
    try {
      const record = JSON.parse(text) as LedgerRecord;
      if (typeof record.envelope_json === "string" && typeof record.request_hash === "string") return record;
    } catch {
      // fall through
    }
    const ref = this.layout.relative(file);
    throw new AopError("file_corrupt", `idempotency record ${ref} is corrupt`, { details: { path: ref }, hint: "delete it to let the operation run again" });
  }

  write(record: LedgerRecord): void {
    writeJsonAtomic(this.fileFor(record.operation_id), record);
  }

  /**
   * Hold the operation's lock while `fn` looks up and possibly executes, so two processes racing on
   * the same new id run the handler once: the second waits, then finds the record and replays it.
   */
  async exclusive<T>(operationId: string, fn: (existing: LedgerRecord | null) => Promise<T>): Promise<T> {
    // Held while the handler runs (a gate can take minutes): never reclaimed by age, only when its
    // holder process is gone; a racing caller waits as long as the first one works.
    const release = await acquireLock(this.layout.lockFor(this.fileFor(operationId)), { timeoutMs: 6 * 3600_000, staleMs: Infinity });
    try {
      return await fn(this.read(operationId));
    } finally {
      release();
    }
  }
}
