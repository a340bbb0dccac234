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
    ts: new Date(Date.UTC(2026, 0, 1) + i).toISOString(), run_id: runId, session_id: null, actor_type: "orchestrator",
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
});
