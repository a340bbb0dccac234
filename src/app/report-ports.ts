// The report's view of the idempotency ledger, handed to the report by the composition root
// (docs/report.md); the record format and its bounded reader live in store/ledger-files.ts.
import type { WorkspaceLayout } from "../store/layout.js";
import { readRecord } from "../store/ledger-files.js";
import type { LedgerReader } from "../domains/report/index.js";

export function ledgerReader(layout: WorkspaceLayout): LedgerReader {
  return (operationId) => {
    try {
      const record = readRecord(layout, operationId);
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
