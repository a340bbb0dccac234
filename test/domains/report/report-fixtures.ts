// Entries for the report's unit tests: a record with defaults, overridden per test.
import type { ReportEntry, TimelineRecord } from "../../../src/domains/report/timeline-codec.js";

export function record(sequence: number, over: Partial<TimelineRecord> = {}): TimelineRecord {
  return {
    ts: new Date(Date.UTC(2026, 2, 1, 9, 0, 0) + sequence * 100).toISOString(),
    sequence, run_id: "run:a", session_id: "s1", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: null,
    idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 10, agent_id: null, agent_type: null, extra: null,
    ...over,
  };
}

export function entry(sequence: number, over: Partial<ReportEntry> = {}): ReportEntry {
  const { ts, ...rest } = record(sequence);
  return { ...rest, index: sequence, ts_ms: Date.parse(ts), ts_raw: null, ...over };
}
