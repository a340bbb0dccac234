// The report's view of the idempotency ledger: the runtime owns the ledger's format and reader, and
// domains do not import the runtime, so the composition root hands the report a reader (docs/report.md).
import type { WorkspaceLayout } from "../store/layout.js";
import { IdempotencyLedger } from "../runtime/idempotency-ledger.js";
import type { LedgerReader } from "../domains/report/index.js";

export function ledgerReader(layout: WorkspaceLayout): LedgerReader {
  const ledger = new IdempotencyLedger(layout);
  return (operationId) => {
    try {
      const record = ledger.read(operationId);
      if (record === null) return { status: "missing" };
      return {
        status: "recorded",
        record: {
          operation_id: String(record.operation_id),
          tool_name: String(record.tool_name),
          request_hash: String(record.request_hash),
          run_id: String(record.run_id),
          recorded_at: String(record.recorded_at),
          envelope_json: record.envelope_json,
        },
      };
    } catch (err) {
      return { status: "unreadable", reason: err instanceof Error ? err.message : String(err) };
    }
  };
}
