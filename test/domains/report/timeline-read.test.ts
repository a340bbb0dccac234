import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serializeEntry } from "../../../src/domains/replay/timeline-entry.js";
import { readRunRecords } from "../../../src/domains/report/timeline-read.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempWorkspace } from "../../helpers/tmp.js";
import { record } from "./report-fixtures.js";

const wide = { maxEntries: 1_000, maxBytes: 1 << 30, sinceMs: null };

function lines(n: number, extra: (i: number) => string = () => ""): string {
  let out = "";
  for (let i = 0; i < n; i++) {
    const { sequence: _s, agent_id: _a, agent_type: _t, extra: _e, ...e } = record(i, { run_id: "r1" });
    out += serializeEntry({ ...e, session_id: e.session_id ?? e.run_id }, i).replace(/}\n$/, `${extra(i)}}\n`);
  }
  return out;
}

function workspace(content: string): WorkspaceLayout {
  const layout = new WorkspaceLayout(tempWorkspace());
  fs.mkdirSync(layout.replayDir, { recursive: true });
  fs.writeFileSync(layout.timelineFile("r1"), content);
  return layout;
}

describe("reading a run for the report", () => {
  it("keeps the subagent fields and any field outside the contract", async () => {
    const layout = workspace(lines(2, (i) => (i === 1 ? ',"agent_id":"a7","agent_type":"Explore","prompt_id":"p-1"' : "")));
    const read = await readRunRecords(layout, "r1", wide);
    expect(read.records[1]).toMatchObject({ agent_id: "a7", agent_type: "Explore", extra: { prompt_id: "p-1" } });
    expect(read.records[0]!.extra).toBeNull();
  });

  it("joins the sidecar's extras by sequence (subagent fields, the rest under extra); a session naming the run is none", async () => {
    const layout = workspace(lines(3));
    fs.writeFileSync(layout.timelineExt("r1"), '{"sequence":1,"agent_id":"a7","agent_type":"Explore","tool_use_id":"toolu_1"}\n{"sequence":9,"agent_id":"ghost"}\n{torn');
    const read = await readRunRecords(layout, "r1", wide);
    expect(read.records.map((r) => [r.sequence, r.agent_id, r.agent_type, r.extra])).toEqual([[0, null, null, null], [1, "a7", "Explore", { tool_use_id: "toolu_1" }], [2, null, null, null]]);
    expect(read.skipped_lines).toBe(0);
  });

  it("keeps only the newest maxEntries entries", async () => {
    const read = await readRunRecords(workspace(lines(50)), "r1", { ...wide, maxEntries: 7 });
    expect(read.records.map((r) => r.sequence)).toEqual([43, 44, 45, 46, 47, 48, 49]);
  });

  it("reads at most maxBytes from the end, starting at a whole line", async () => {
    const text = lines(100);
    const read = await readRunRecords(workspace(text), "r1", { ...wide, maxBytes: 1000 });
    expect(read.cut).toBe(true);
    expect(read.skipped_lines).toBe(0);
    expect(read.records.at(-1)!.sequence).toBe(99);
    expect(read.records.length).toBeGreaterThan(0);
    expect(read.records.length).toBeLessThan(10);
    expect(read.cursor).toBe(Buffer.byteLength(text));
  });

  it("leaves out entries before --since, counts garbage lines, and ignores a torn last line", async () => {
    const text = lines(10) + "not json\n" + '{"sequence":10,"ts":"x"';
    const read = await readRunRecords(workspace(text), "r1", { ...wide, sinceMs: Date.parse(record(6).ts) });
    expect(read.records.map((r) => r.sequence)).toEqual([6, 7, 8, 9]);
    expect(read.skipped_lines).toBe(1);
    expect(read.cursor).toBe(Buffer.byteLength(lines(10) + "not json\n"));
  });

  it("continues from a cursor", async () => {
    const layout = workspace(lines(5));
    const first = await readRunRecords(layout, "r1", wide);
    fs.appendFileSync(layout.timelineFile("r1"), lines(7).slice(Buffer.byteLength(lines(5))));
    const next = await readRunRecords(layout, "r1", { ...wide, fromOffset: first.cursor });
    expect(next.records.map((r) => r.sequence)).toEqual([5, 6]);
  });

  it("refuses a symbolic link and a FIFO without blocking", async () => {
    const layout = workspace("");
    const outside = path.join(path.dirname(layout.root), `${path.basename(layout.root)}-outside.jsonl`);
    fs.writeFileSync(outside, lines(3));
    fs.rmSync(layout.timelineFile("r1"));
    fs.symlinkSync(outside, layout.timelineFile("r1"));
    expect((await readRunRecords(layout, "r1", wide)).problem).toMatch(/symbolic link/);
    fs.rmSync(layout.timelineFile("r1"));
    fs.rmSync(outside);
    execFileSync("mkfifo", [layout.timelineFile("r1")]);
    expect((await readRunRecords(layout, "r1", wide)).problem).toMatch(/not a regular file/);
  });
});
