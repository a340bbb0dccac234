// The answer the idempotency ledger recorded for a state-changing call of a run, or why the record has none
// (docs/replay.md, "Time travel").
import fs from "node:fs";
import { ledgerKey, readLedgerEntry } from "../../store/ledger-files.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { STATE_TOOLS, type RecordedStep, type StepEntry } from "./state-fold.js";


export function stepEntry(e: StepEntry): StepEntry {
  const { sequence, ts, tool_name, feature_id, mutating, operation_id, idempotency_status, result, error_code } = e;
  return { sequence, ts, tool_name, feature_id, mutating, operation_id, idempotency_status, result, error_code };
}

/**
 * The ledger as one question asks it: each fan-out folder is listed once, so an operation whose files are
 * gone (pruned) costs a set look-up instead of two failed opens — a long run asks thousands of times.
 */
export class LedgerLookup {
  private readonly listed = new Map<string, Set<string> | null>();
  constructor(readonly layout: WorkspaceLayout) {}

  /** False only when the folder was listed and holds neither the record nor the intent. */
  mayHold(operationId: string): boolean {
    const names = this.layout.ledgerFileNames(ledgerKey(operationId));
    let listed = this.listed.get(names.bucket);
    if (listed === undefined) {
      try {
        listed = new Set(fs.readdirSync(this.layout.ledgerBucket(names.bucket)));
      } catch (err) {
        // A missing folder holds nothing; any other failure is left to the read, which reports it.
        listed = (err as NodeJS.ErrnoException).code === "ENOENT" ? new Set() : null;
      }
      this.listed.set(names.bucket, listed);
    }
    return listed === null || listed.has(names.record) || listed.has(names.intent);
  }
}

/** The recorded answer of a state-changing call, or why the record has none. */
export function answerOf(ledger: LedgerLookup, e: StepEntry): RecordedStep["answer"] {
  if (!STATE_TOOLS.has(e.tool_name) || e.idempotency_status === "replay" || e.idempotency_status === "mismatch") return null;
  if (e.operation_id === null) return { unknown: `step ${e.sequence} (${e.tool_name}) was recorded without an operation id, so no answer was kept` };
  let entry;
  try {
    entry = ledger.mayHold(e.operation_id) ? readLedgerEntry(ledger.layout, e.operation_id) : ({ kind: "none" } as const);
  } catch (err) {
    return { unknown: `the ledger's file for operation ${e.operation_id} cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (entry.kind === "none") return { unknown: `the ledger no longer holds the answer of operation ${e.operation_id} (step ${e.sequence}, ${e.tool_name}): pruned by idempotency.retention or removed` };
  if (entry.kind === "intent") return { unknown: `operation ${e.operation_id} (step ${e.sequence}, ${e.tool_name}) left only an intent: it was interrupted` };
  try {
    return { envelope: JSON.parse(entry.record.envelope_json) as never };
  } catch {
    return { unknown: `the ledger's answer of operation ${e.operation_id} is not JSON` };
  }
}

