// The recorded envelopes of mutating calls, read through the ledger port the composition root supplies
// (the ledger belongs to the runtime, which domains do not import). Bounded: the newest calls first, a
// fixed number of look-ups, a byte budget, each envelope cut at a bound.
import type { LedgerRecord } from "../../store/ledger-files.js";
import type { LedgerView } from "./report-types.js";
import type { TimelineRecord } from "./timeline-codec.js";

/** An idempotency record as the store reads it. */
type LedgerRecordView = LedgerRecord;

export type LedgerLookup = { status: "recorded"; record: LedgerRecordView } | { status: "missing" } | { status: "unreadable"; reason: string };

/** Reads the idempotency record of one operation id. Never throws. */
export type LedgerReader = (operationId: string) => LedgerLookup;

export interface LedgerBudget {
  maxLookups: number;
  maxBytes: number;
  maxEnvelopeBytes: number;
}

export const DEFAULT_LEDGER_BUDGET: LedgerBudget = { maxLookups: 2_000, maxBytes: 2 * 1024 * 1024, maxEnvelopeBytes: 64 * 1024 };

export function ledgerView(operationId: string, lookup: LedgerLookup, maxEnvelopeBytes: number): LedgerView {
  if (lookup.status === "missing") return { status: "missing", operation_id: operationId };
  if (lookup.status === "unreadable") return { status: "unreadable", operation_id: operationId, reason: lookup.reason };
  const r = lookup.record;
  const truncated = r.envelope_json.length > maxEnvelopeBytes;
  return {
    status: "recorded", operation_id: operationId, tool_name: r.tool_name, request_hash: r.request_hash, run_id: r.run_id, recorded_at: r.recorded_at,
    envelope_json: truncated ? r.envelope_json.slice(0, maxEnvelopeBytes) : r.envelope_json, truncated,
  };
}

export interface GatheredLedger {
  ledger: Record<string, LedgerView>;
  /** Mutating calls whose envelope was left out by the budget. */
  left_out: number;
}

/** Only calls that went through the idempotency stage have a record (an agent's own tools, seen by a hook, do not). */
export function hasLedgerRecord(r: Pick<TimelineRecord, "mutating" | "operation_id" | "idempotency_status">): boolean {
  return r.mutating && r.operation_id !== null && r.idempotency_status !== "none";
}

export function gatherLedger(runs: Iterable<TimelineRecord[]>, read: LedgerReader, budget: LedgerBudget = DEFAULT_LEDGER_BUDGET): GatheredLedger {
  // Operation ids of mutating calls, newest first: runs come newest first, and a later call is likelier to be looked at.
  const wanted: { id: string }[] = [];
  for (const records of runs) {
    for (let i = records.length - 1; i >= 0; i--) {
      const r = records[i]!;
      if (hasLedgerRecord(r)) wanted.push({ id: r.operation_id! });
    }
  }
  const ledger: Record<string, LedgerView> = Object.create(null) as Record<string, LedgerView>;
  let lookups = 0;
  let bytes = 0;
  let leftOut = 0;
  for (const { id } of wanted) {
    if (id in ledger) continue;
    if (lookups >= budget.maxLookups || bytes >= budget.maxBytes) {
      leftOut += 1;
      continue;
    }
    lookups += 1;
    const entry = ledgerView(id, read(id), budget.maxEnvelopeBytes);
    bytes += entry.envelope_json?.length ?? 0;
    ledger[id] = entry;
  }
  return { ledger: { ...ledger }, left_out: leftOut };
}
