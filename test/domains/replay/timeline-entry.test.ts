import { describe, expect, it } from "vitest";
import { asEntry, ENTRY_KEYS, entryFromCall, extrasOf, joinExtras, serializeEntry, serializeExt } from "../../../src/domains/replay/timeline-entry.js";
import { FirstPage, matches } from "../../../src/domains/replay/timeline-filter.js";
import { emptyMeta, noteEntry, seekOffset, INDEX_STRIDE } from "../../../src/domains/replay/timeline-meta.js";
import type { CompletedCall } from "../../../src/catalog/timeline-hook.js";

const call: CompletedCall = {
  completed_at: Date.parse("2026-01-02T03:04:05.678Z"),
  identity: { run_id: "run:1", session_id: "s", actor_type: "builder" },
  tool_name: "feature.init", mutating: true, feature_id: "f", operation_id: "op-12345678", idempotency_status: "new",
  request_hash: "sha256:" + "a".repeat(64), envelope: { ok: false, error: { code: "feature_already_exists", message: "m", details: {} } }, latency_ms: 1.5,
};

describe("timeline entry", () => {
  // The contract (README, "The replay timeline": keys always present, in this order), written out here
  // rather than taken from the module under test.
  const CONTRACT_KEYS = ["ts", "sequence", "run_id", "session_id", "actor_type", "feature_id", "tool_name", "mutating", "operation_id", "idempotency_status", "request_hash", "result", "error_code", "latency_ms"];

  it("has exactly the contract's keys, in order", () => {
    const line = serializeEntry(entryFromCall(call), 7);
    expect(line).toBe(
      '{"ts":"2026-01-02T03:04:05.678Z","sequence":7,"run_id":"run:1","session_id":"s","actor_type":"builder","feature_id":"f","tool_name":"feature.init",' +
        `"mutating":true,"operation_id":"op-12345678","idempotency_status":"new","request_hash":"sha256:${"a".repeat(64)}","result":"error","error_code":"feature_already_exists","latency_ms":2}\n`,
    );
    expect(Object.keys(JSON.parse(line))).toEqual(CONTRACT_KEYS);
    expect(ENTRY_KEYS).toEqual(CONTRACT_KEYS);
    expect(JSON.parse(line)).toEqual({
      ts: "2026-01-02T03:04:05.678Z", sequence: 7, run_id: "run:1", session_id: "s", actor_type: "builder", feature_id: "f", tool_name: "feature.init",
      mutating: true, operation_id: "op-12345678", idempotency_status: "new", request_hash: "sha256:" + "a".repeat(64), result: "error", error_code: "feature_already_exists", latency_ms: 2,
    });
  });

  it("writes the seed's line whatever the call: a string session (the run's id without one), a whole latency ≥ 0", () => {
    const line = JSON.parse(serializeEntry(entryFromCall({ ...call, identity: { run_id: "run:1", session_id: null, actor_type: "builder" }, latency_ms: 0.4 }), 0));
    expect(line).toMatchObject({ session_id: "run:1", latency_ms: 0 });
    expect(JSON.parse(serializeEntry({ ...entryFromCall(call), latency_ms: -3 }, 0)).latency_ms).toBe(0);
    expect(JSON.parse(serializeEntry({ ...entryFromCall(call), latency_ms: 316.5 }, 0)).latency_ms).toBe(317);
  });

  it("keeps transport and other extras out of the line: they make the sidecar line, joined back by sequence", () => {
    const entry = { ...entryFromCall(call), transport: "mcp", ext: { tool_use_id: "toolu_1", sequence: 99 } };
    const line = serializeEntry(entry, 7);
    expect(Object.keys(JSON.parse(line))).toEqual(CONTRACT_KEYS);
    const extras = extrasOf(entry)!;
    expect(serializeExt(7, extras)).toBe('{"sequence":7,"transport":"mcp","tool_use_id":"toolu_1"}\n');
    expect(joinExtras(asEntry(JSON.parse(line))!, JSON.parse(serializeExt(7, extras)))).toMatchObject({ sequence: 7, transport: "mcp", ext: { tool_use_id: "toolu_1" } });
    expect(extrasOf(entryFromCall(call))).toBeNull();
  });

  it("reads aop's older lines (extras in the line, a null session, a fractional latency) as the new ones", () => {
    const old = { ...JSON.parse(serializeEntry(entryFromCall(call), 3)), session_id: null, latency_ms: 12.6, transport: "mcp", marker: "Stop" };
    expect(asEntry(old)).toMatchObject({ sequence: 3, session_id: "run:1", latency_ms: 13, transport: "mcp", marker: "Stop" });
  });

  it("nulls the request hash of read-only calls", () => {
    expect(entryFromCall({ ...call, mutating: false }).request_hash).toBeNull();
  });

  it("reads upstream lines: run: ids, bare-hex hashes, missing optional keys", () => {
    const upstream = { ts: "2026-01-01T00:00:00Z", sequence: 0, run_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", tool_name: "gates.run", request_hash: "b".repeat(64), result: "ok" };
    expect(asEntry(upstream)).toMatchObject({ sequence: 0, request_hash: "b".repeat(64), session_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", idempotency_status: "none", mutating: false });
    expect(asEntry({ sequence: -1, tool_name: "x" })).toBeNull();
    expect(asEntry({ sequence: 1.5, tool_name: "x" })).toBeNull();
    expect(asEntry([1])).toBeNull();
  });
});

describe("timeline meta (pure)", () => {
  it("indexes every INDEX_STRIDE sequences and seeks to the nearest one below", () => {
    const meta = emptyMeta("r");
    for (let i = 0; i < INDEX_STRIDE * 3; i++) noteEntry(meta, { sequence: i, ts: "t", result: "ok" }, i * 10);
    expect(meta.index).toEqual([0, 0, INDEX_STRIDE, INDEX_STRIDE * 10, INDEX_STRIDE * 2, INDEX_STRIDE * 20]);
    expect(seekOffset(meta, INDEX_STRIDE * 2 - 1)).toBe(INDEX_STRIDE * 10);
    expect(seekOffset(meta, 0)).toBe(0);
    expect(meta.sequence_anomalies).toBe(0);
  });

  it("counts gaps and duplicates as anomalies", () => {
    const meta = emptyMeta("r");
    for (const seq of [0, 1, 3, 3]) noteEntry(meta, { sequence: seq, ts: "t", result: "ok" }, 0);
    expect(meta.sequence_anomalies).toBe(2);
    expect(meta.sequence_head).toBe(3);
  });
});

describe("timeline filters (pure)", () => {
  const e = (sequence: number, extra: object = {}) => ({ ...asEntry({ sequence, tool_name: "t", ts: "x" })!, ...extra });
  it("matches every filter", () => {
    const entry = e(5, { feature_id: "f", tool_name: "a.b", result: "error", idempotency_status: "replay" });
    expect(matches(entry, { from_sequence: 5, to_sequence: 5, feature_id: "f", tool_name: "a.b", result: "error", idempotency_status: "replay" })).toBe(true);
    expect(matches(entry, { from_sequence: 6 })).toBe(false);
    expect(matches(entry, { to_sequence: 4 })).toBe(false);
    expect(matches(entry, { feature_id: "g" })).toBe(false);
    expect(matches(entry, { tool_name: "x" })).toBe(false);
    expect(matches(entry, { result: "ok" })).toBe(false);
    expect(matches(entry, { idempotency_status: "new" })).toBe(false);
  });

  it("keeps the lowest sequences in order even when lines arrive out of order", () => {
    const page = new FirstPage(3);
    for (const s of [5, 1, 9, 0, 3, 2]) page.offer(e(s));
    expect(page.entries.map((x) => x.sequence)).toEqual([0, 1, 2]);
  });
});
