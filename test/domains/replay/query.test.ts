import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { TimelineWriter } from "../../../src/domains/replay/timeline-writer.js";
import { queryTimeline } from "../../../src/domains/replay/timeline-query.js";
import type { EntryWithoutSequence } from "../../../src/domains/replay/timeline-entry.js";
import { tempWorkspace } from "../../helpers/tmp.js";

const TOOLS = ["feature.get", "feature.init", "run.status", "feature.set_status"];

function entryFor(i: number, runId: string): EntryWithoutSequence {
  return {
    ts: new Date(Date.UTC(2026, 0, 1) + i).toISOString(), run_id: runId, session_id: runId, actor_type: "orchestrator",
    feature_id: i % 3 === 0 ? "feat_a" : "feat_b", tool_name: TOOLS[i % 4]!, mutating: i % 4 === 1 || i % 4 === 3,
    operation_id: null, idempotency_status: i % 10 === 0 ? "replay" : i % 4 === 1 ? "new" : "none", request_hash: null,
    result: i % 7 === 0 ? "error" : "ok", error_code: i % 7 === 0 ? "feature_not_found" : null, latency_ms: 1,
  };
}

async function buildRun(layout: WorkspaceLayout, runId: string, n: number): Promise<void> {
  const writer = new TimelineWriter(layout, () => 10_000_000);
  for (let i = 0; i < n; i++) await writer.append(entryFor(i, runId));
  writer.close();
}

describe("replay.timeline_get queries", () => {
  let layout: WorkspaceLayout;
  beforeAll(async () => {
    layout = new WorkspaceLayout(tempWorkspace());
    await buildRun(layout, "big", 50_000);
    await buildRun(layout, "small", 100);
  }, 120_000);

  it("pages through a 50,000-entry run with next_from_sequence, gap-free and in order", async () => {
    let from: number | null = 0;
    let seen = 0;
    let pages = 0;
    while (from !== null) {
      const page = await queryTimeline(layout, { run_id: "big", from_sequence: from, limit: 10_000 });
      expect(page.total_matched).toBe(50_000 - from);
      for (const e of page.entries) expect(e.sequence).toBe(seen++);
      from = page.next_from_sequence;
      pages++;
    }
    expect(seen).toBe(50_000);
    expect(pages).toBe(5);
  });

  it("seeks to from_sequence near the end", async () => {
    const page = await queryTimeline(layout, { run_id: "big", from_sequence: 49_900, limit: 100 });
    expect(page.entries.map((e) => e.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => 49_900 + i));
    expect(page).toMatchObject({ total_matched: 100, next_from_sequence: null, skipped_lines: 0 });
  });

  it("defaults to 100 entries and honours to_sequence", async () => {
    expect((await queryTimeline(layout, { run_id: "big" })).entries).toHaveLength(100);
    const page = await queryTimeline(layout, { run_id: "big", from_sequence: 10, to_sequence: 14 });
    expect(page.entries.map((e) => e.sequence)).toEqual([10, 11, 12, 13, 14]);
    expect(page).toMatchObject({ total_matched: 5, next_from_sequence: null });
  });

  const expected = (pred: (i: number) => boolean) => Array.from({ length: 100 }, (_, i) => i).filter(pred);
  it.each([
    ["feature_id", { feature_id: "feat_a" }, (i: number) => i % 3 === 0],
    ["tool_name", { tool_name: "run.status" }, (i: number) => i % 4 === 2],
    ["result", { result: "error" as const }, (i: number) => i % 7 === 0],
    ["idempotency_status", { idempotency_status: "replay" as const }, (i: number) => i % 10 === 0],
  ])("filters by %s", async (_name, filter, pred) => {
    const page = await queryTimeline(layout, { run_id: "small", limit: 1000, ...filter });
    expect(page.entries.map((e) => e.sequence)).toEqual(expected(pred));
    expect(page.total_matched).toBe(expected(pred).length);
  });

  it("pages a filtered query", async () => {
    const first = await queryTimeline(layout, { run_id: "small", result: "error", limit: 5 });
    expect(first.entries.map((e) => e.sequence)).toEqual([0, 7, 14, 21, 28]);
    expect(first.next_from_sequence).toBe(35);
    const second = await queryTimeline(layout, { run_id: "small", result: "error", limit: 5, from_sequence: first.next_from_sequence! });
    expect(second.entries[0]!.sequence).toBe(35);
  });

  it("skips and counts malformed lines in the middle, still ordered by sequence", async () => {
    const l = new WorkspaceLayout(tempWorkspace());
    await buildRun(l, "dirty", 10);
    const lines = fs.readFileSync(l.timelineFile("dirty"), "utf8").split("\n");
    lines.splice(5, 0, "{not json", '{"valid_json":"but not an entry"}');
    [lines[2], lines[3]] = [lines[3]!, lines[2]!]; // out of file order
    fs.writeFileSync(l.timelineFile("dirty"), lines.join("\n"));
    const page = await queryTimeline(l, { run_id: "dirty" });
    expect(page.entries.map((e) => e.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(page.skipped_lines).toBe(2);
  });

  it("missing run → replay_run_not_found; traversal in run_id → invalid_argument", async () => {
    await expect(queryTimeline(layout, { run_id: "nope" })).rejects.toMatchObject({ code: "replay_run_not_found" });
    await expect(queryTimeline(layout, { run_id: "../../etc/passwd" })).rejects.toMatchObject({ code: "invalid_argument" });
  });

  it("reads an upstream timeline: run:<uuid> id, bare-hex request_hash, no meta file", async () => {
    const l = new WorkspaceLayout(tempWorkspace());
    const runId = "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a";
    fs.mkdirSync(l.replayDir, { recursive: true });
    const upstream = [0, 1, 2].map((i) => JSON.stringify({ ts: `2026-01-01T00:00:0${i}.000Z`, sequence: i, run_id: runId, session_id: null, actor_type: "orchestrator", feature_id: "f", tool_name: "feature.set_status", mutating: true, operation_id: `op-${i}`, idempotency_status: "new", request_hash: "c".repeat(64), result: "ok", error_code: null, latency_ms: 2 }));
    fs.writeFileSync(l.timelineFile(runId), upstream.join("\n") + "\n");
    const page = await queryTimeline(l, { run_id: runId, from_sequence: 1 });
    expect(page.entries.map((e) => [e.sequence, e.request_hash])).toEqual([[1, "c".repeat(64)], [2, "c".repeat(64)]]);
    expect(page.total_matched).toBe(2);
  });

  describe("a timeline whose meta holds only the contract's five fields (the upstream orchestrator's)", () => {
    let up: WorkspaceLayout;
    const runId = "run:aea43f27-0800-466c-bf83-f671f472f0b3";
    const N = 50_000;
    let fileSize = 0;
    beforeAll(() => {
      up = new WorkspaceLayout(tempWorkspace());
      fs.mkdirSync(up.replayDir, { recursive: true });
      // As upstream writes them: bare-hex hashes, `ts` not in sequence order, meta pretty-printed without a newline.
      const lines = Array.from({ length: N }, (_, i) => JSON.stringify({ ...entryFor(i, runId), sequence: i, ts: new Date(Date.UTC(2026, 0, 1) + (i % 2 ? i - 1 : i + 1)).toISOString(), request_hash: i % 4 === 1 ? "e1".repeat(32) : null }));
      fs.writeFileSync(up.timelineFile(runId), lines.join("\n") + "\n");
      fs.writeFileSync(up.timelineMeta(runId), JSON.stringify({ run_id: runId, sequence_head: N - 1, entry_count: N, started_at: "2026-01-01T00:00:00.090Z", last_entry_at: "2026-01-01T00:00:50.300Z" }, null, 2));
      fileSize = fs.statSync(up.timelineFile(runId)).size;
    });

    /** A reader that counts the bytes it hands out. */
    function countingReader() {
      const counter = { bytes: 0, reads: 0 };
      const reader = { read: (fd: number, buffer: Buffer, offset: number, length: number, position: number) => {
        const n = fs.readSync(fd, buffer, offset, length, position);
        counter.bytes += n;
        counter.reads += 1;
        return n;
      } };
      return { reader, counter };
    }

    it("pages at 49,900: the right 100 entries, reading a small part of the file", async () => {
      const { reader, counter } = countingReader();
      const page = await queryTimeline(up, { run_id: runId, from_sequence: 49_900, limit: 100 }, { reader });
      expect(page.entries.map((e) => e.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => 49_900 + i));
      expect(page.entries[0]).toMatchObject({ run_id: runId, tool_name: TOOLS[49_900 % 4], ts: new Date(Date.UTC(2026, 0, 1) + 49_901).toISOString() });
      expect(page).toMatchObject({ total_matched: 100, next_from_sequence: null, skipped_lines: 0 });
      expect(fileSize).toBeGreaterThan(10_000_000);
      expect(counter.bytes).toBeLessThan(fileSize / 50); // well under 2% of the file
    });

    it.each([
      ["the start", 0],
      ["the middle", 25_000],
      ["just before the end", 49_999],
    ])("finds a page at %s with a bounded read", async (_where, from) => {
      const { reader, counter } = countingReader();
      const page = await queryTimeline(up, { run_id: runId, from_sequence: from, limit: 50 }, { reader });
      expect(page.entries.map((e) => e.sequence)).toEqual(Array.from({ length: Math.min(50, N - from) }, (_, i) => from + i));
      expect(page.total_matched).toBe(N - from);
      expect(page.next_from_sequence).toBe(from + 50 < N ? from + 50 : null);
      expect(counter.bytes).toBeLessThan(fileSize / 50);
    });

    it("the same without any meta, and with a meta that disagrees with the file (poisoned head, stale size)", async () => {
      const metaFile = up.timelineMeta(runId);
      const original = fs.readFileSync(metaFile);
      try {
        for (const meta of [null, { run_id: runId, sequence_head: 999_999, entry_count: 1_000_000, started_at: null, last_entry_at: null }, { run_id: runId, sequence_head: 10, entry_count: 11, file_size: 1234, error_count: 0, skipped_lines: 0, repaired_torn_lines: 0, sequence_anomalies: 0, dropped_entries: 0, first_dropped_at: null, last_dropped_at: null, spool_rejected: 0, index: [] }]) {
          if (meta === null) fs.rmSync(metaFile);
          else fs.writeFileSync(metaFile, JSON.stringify(meta));
          const { reader, counter } = countingReader();
          const page = await queryTimeline(up, { run_id: runId, from_sequence: 49_900, limit: 100 }, { reader });
          expect(page.entries.map((e) => e.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => 49_900 + i));
          expect(page.total_matched).toBe(100);
          expect(counter.bytes).toBeLessThan(fileSize / 50);
        }
      } finally {
        fs.writeFileSync(metaFile, original);
      }
    });

    it("a content filter from a sequence reads from the seek point on, not from the start", async () => {
      const { reader, counter } = countingReader();
      const page = await queryTimeline(up, { run_id: runId, from_sequence: 49_000, tool_name: "run.status", limit: 10 }, { reader });
      expect(page.entries.map((e) => e.sequence)).toEqual(Array.from({ length: 10 }, (_, i) => 49_002 + 4 * i));
      expect(page.total_matched).toBe(250);
      expect(counter.bytes).toBeLessThan(fileSize / 20);
    });

    it("a line out of sequence near the page sends the query to a full scan, which stays exact", async () => {
      const l = new WorkspaceLayout(tempWorkspace());
      fs.mkdirSync(l.replayDir, { recursive: true });
      const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ ...entryFor(i, "r"), sequence: i }));
      [lines[1500], lines[1501]] = [lines[1501]!, lines[1500]!];
      lines.splice(1600, 0, "{torn");
      fs.writeFileSync(l.timelineFile("r"), lines.join("\n") + "\n");
      const page = await queryTimeline(l, { run_id: "r", from_sequence: 1490, limit: 20 });
      expect(page.entries.map((e) => e.sequence)).toEqual(Array.from({ length: 20 }, (_, i) => 1490 + i));
      expect(page).toMatchObject({ total_matched: 510, next_from_sequence: 1510, skipped_lines: 1 });
    });
  });
});
