import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeTimeline, encodeTimeline, entryTimestamp, type TimelineRecord } from "../../../src/domains/report/timeline-codec.js";
import { record } from "./report-fixtures.js";

function roundTrip(records: TimelineRecord[]): TimelineRecord[] {
  return decodeTimeline(JSON.parse(JSON.stringify(encodeTimeline("run:a", records)))).map(({ index: _i, ts_ms: _m, ts_raw: _r, ...rest }, i) => ({ ...rest, ts: entryTimestamp(decodeTimeline(encodeTimeline("run:a", records))[i]!) }));
}

describe("timeline codec", () => {
  it("gives back every field of every entry after a JSON round trip", () => {
    const records = [
      record(0),
      record(1, { tool_name: "feature.set_status", mutating: true, operation_id: "op-1", idempotency_status: "new", request_hash: "sha256:" + "ab".repeat(32), feature_id: "feat_a" }),
      record(2, { result: "error", error_code: "feature_not_found", session_id: null, actor_type: "builder", latency_ms: 0.25 }),
      record(3, { idempotency_status: "replay", mutating: true, operation_id: "op-1", request_hash: "deadbeef" }),
      record(5, { agent_id: "agent-7", agent_type: "Explore", extra: { prompt_id: "p1", nested: { a: [1, 2] } } }),
    ];
    expect(roundTrip(records)).toEqual(records);
  });

  it("keeps a timestamp that is not the ISO form of its instant as written, and places an unparseable one at the previous entry", () => {
    const records = [record(0), record(1, { ts: "2026-03-01T09:00:00.5+00:00" }), record(2, { ts: "yesterday" }), record(3, { ts: "2026-02-30T00:00:00.000Z" }), record(4, { ts: "2026-03-01T24:00:00.000Z" }), record(5, { ts: "2026-03-31T23:59:59.999Z" })];
    const decoded = decodeTimeline(encodeTimeline("run:a", records));
    expect(decoded.map(entryTimestamp)).toEqual(records.map((r) => r.ts));
    expect(decoded[2]!.ts_ms).toBe(decoded[1]!.ts_ms);
    // Dates Date.parse rolls over (Feb 30, hour 24) keep their text; a plain instant needs none.
    expect(Object.keys(encodeTimeline("run:a", records).raw_ts)).toEqual(["1", "2", "3", "4"]);
  });

  it("records a line naming another run, and sequences with gaps or going backwards", () => {
    const records = [record(4), record(9, { run_id: "run:b" }), record(7)];
    const decoded = decodeTimeline(encodeTimeline("run:a", records));
    expect(decoded.map((e) => [e.sequence, e.run_id])).toEqual([[4, "run:a"], [9, "run:b"], [7, "run:a"]]);
  });

  it("stores each string once", () => {
    const records = Array.from({ length: 100 }, (_, i) => record(i, { tool_name: i % 2 ? "Edit" : "Read" }));
    const encoded = encodeTimeline("run:a", records);
    expect(encoded.strings.filter((s) => s === "Edit")).toHaveLength(1);
  });

  it("round-trips arbitrary records", () => {
    const text = fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: null });
    const arb = fc.array(
      fc.record({
        ms: fc.integer({ min: 0, max: 4_000_000_000_000 }), tool: fc.string({ maxLength: 12 }), session: text, feature: text, op: text, hash: text, err: text,
        status: fc.constantFrom("none", "new", "replay", "mismatch" as const), error: fc.boolean(), mutating: fc.boolean(), lat: fc.double({ min: 0, max: 1e6, noNaN: true }),
      }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(arb, (rows) => {
        const records = rows.map((r, i) => record(i * 2, {
          ts: new Date(r.ms).toISOString(), tool_name: r.tool, session_id: r.session, feature_id: r.feature, operation_id: r.op, request_hash: r.hash, error_code: r.err,
          idempotency_status: r.status, result: r.error ? "error" : "ok", mutating: r.mutating, latency_ms: r.lat,
        }));
        expect(roundTrip(records)).toEqual(records);
      }),
    );
  });
});
