import { describe, expect, it } from "vitest";
import { encodedRunStats, percentile, runStats, toolStats } from "../../../src/domains/report/stats.js";
import { decodeTimeline, encodeTimeline } from "../../../src/domains/report/timeline-codec.js";
import { entry, record } from "./report-fixtures.js";

describe("report stats", () => {
  it("percentile is nearest-rank", () => {
    const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(v, 50)).toBe(5);
    expect(percentile(v, 95)).toBe(10);
    expect(percentile(v, 90)).toBe(9);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });

  it("counts calls, errors, replays and latency percentiles per tool, most calls first", () => {
    const entries = [
      ...Array.from({ length: 20 }, (_, i) => entry(i, { tool_name: "Read", latency_ms: i + 1 })),
      entry(20, { tool_name: "Edit", latency_ms: 5, result: "error", mutating: true }),
      entry(21, { tool_name: "Edit", latency_ms: 15, idempotency_status: "replay", mutating: true }),
    ];
    const [read, edit] = toolStats(entries);
    expect(read).toMatchObject({ tool_name: "Read", calls: 20, errors: 0, p50_ms: 10, p95_ms: 19, max_ms: 20, total_ms: 210 });
    expect(edit).toMatchObject({ tool_name: "Edit", calls: 2, errors: 1, replays: 1, mutating_calls: 2, p50_ms: 5, p95_ms: 15 });
  });

  it("restricts to the given indexes (a filter's matches)", () => {
    const entries = [entry(0), entry(1, { tool_name: "Edit" }), entry(2)];
    expect(toolStats(entries, Int32Array.from([1]))).toEqual([expect.objectContaining({ tool_name: "Edit", calls: 1 })]);
  });

  it("a run's span runs from its earliest call start to its latest end; entries without a session are not a session", () => {
    const entries = [entry(0, { latency_ms: 50 }), entry(1, { session_id: null }), entry(2, { session_id: "s2", result: "error" })];
    const s = runStats(entries);
    expect(s).toMatchObject({ entries: 3, errors: 1, sessions: 2, tools: 1 });
    expect(s.first_start_ms).toBe(entries[0]!.ts_ms - 50);
    expect(s.last_end_ms).toBe(entries[2]!.ts_ms);
  });

  it("the runs list's figures from the columns equal those of the decoded entries", () => {
    const records = [record(0, { latency_ms: 300 }), record(1, { session_id: null, result: "error" }), record(2, { session_id: "s9" }), record(3)];
    const encoded = encodeTimeline("run:a", records);
    const full = runStats(decodeTimeline(encoded));
    expect(encodedRunStats(encoded)).toEqual({ entries: full.entries, errors: full.errors, sessions: full.sessions, first_start_ms: full.first_start_ms, last_end_ms: full.last_end_ms });
  });
});
