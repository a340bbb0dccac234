// The answer the idempotency ledger recorded for a state-changing call of a run, or why the record has none
// (docs/replay.md, "Time travel").
import { readLedgerEntry } from "../../store/ledger-files.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { STATE_TOOLS, type RecordedStep, type StepEntry } from "./state-fold.js";


export function stepEntry(e: StepEntry): StepEntry {
  const { sequence, ts, tool_name, feature_id, mutating, operation_id, idempotency_status, result, error_code } = e;
  return { sequence, ts, tool_name, feature_id, mutating, operation_id, idempotency_status, result, error_code };
}

/** The recorded answer of a state-changing call, or why the record has none. */
export function answerOf(layout: WorkspaceLayout, e: StepEntry): RecordedStep["answer"] {
  if (!STATE_TOOLS.has(e.tool_name) || e.idempotency_status === "replay" || e.idempotency_status === "mismatch") return null;
  if (e.operation_id === null) return { unknown: `step ${e.sequence} (${e.tool_name}) was recorded without an operation id, so no answer was kept` };
  let entry;
  try {
    entry = readLedgerEntry(layout, e.operation_id);
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

