import fs from "node:fs";
import { describe, expect, it } from "vitest";
import "../../helpers/workers-env.js";
import { runWorkers, startWorker, waitForOutput } from "../../helpers/processes.js";
import { tempWorkspace } from "../../helpers/tmp.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { TimelineWriter } from "../../../src/domains/replay/timeline-writer.js";
import { readTimelineLines, SEED_KEYS, sequences } from "../../helpers/timeline.js";
import { queryTimeline } from "../../../src/domains/replay/timeline-query.js";

/**
 * The sidecar as written (DESIGN §21): every complete line names a sequence whose timeline line is there
 * and is the entry it was written with (`op` = its operation_id), once. Returns the complete lines' count.
 */
function expectSidecarJoins(layout: WorkspaceLayout, runId: string): number {
  if (!fs.existsSync(layout.timelineFile(runId))) {
    expect(fs.existsSync(layout.timelineExt(runId))).toBe(false);
    return 0;
  }
  const byOp = new Map(readTimelineLines(layout, runId).entries.map((e) => [e.sequence as number, e.operation_id]));
  let text: string;
  try {
    text = fs.readFileSync(layout.timelineExt(runId), "utf8");
  } catch {
    return 0;
  }
  const parts = text.split("\n");
  parts.pop(); // a torn final line (a writer killed mid-write) is no extra
  const seen = new Set<number>();
  for (const part of parts) {
    if (part === "") continue;
    let ext: { sequence: number; op: string; transport: string };
    try {
      ext = JSON.parse(part);
    } catch {
      continue; // a torn line terminated by the next writer: extras lost, entry kept
    }
    expect(byOp.get(ext.sequence), `extras of sequence ${ext.sequence} without their line`).toBe(ext.op);
    expect(ext.transport).toBe("mcp");
    expect(seen.has(ext.sequence)).toBe(false);
    seen.add(ext.sequence);
  }
  return seen.size;
}
import { bySuite } from "../../helpers/soak.js";

// `npm test` runs these smaller; the soak run at full size (test/helpers/soak.ts).
const PROCESSES = bySuite(4, 8);
const APPENDS = bySuite(500, 2_500);
const KILLS = bySuite(12, 50);
const thousands = (count: number) => count.toLocaleString("en-US");

describe("timeline under concurrency and crashes", () => {
  it(`${PROCESSES} processes × ${thousands(APPENDS)} appends to one run: every sequence 0..${thousands(PROCESSES * APPENDS - 1)} once, no torn lines, per-process order kept`, async () => {
    const root = tempWorkspace();
    const layout = new WorkspaceLayout(root);
    const results = await runWorkers("timeline-append.mjs", Array.from({ length: PROCESSES }, (_, p) => [root, "run-conc", `p${p}`, String(APPENDS)]));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const lines = readTimelineLines(layout, "run-conc");
    expect(lines.unparseable).toBe(0);
    expect(lines.tornTail).toBe(false);
    expect(sequences(lines)).toEqual(Array.from({ length: PROCESSES * APPENDS }, (_, i) => i));
    const lastByProcess = new Map<string, number>();
    for (const e of lines.entries) {
      const [tag, n] = String(e.operation_id).split("-");
      const prev = lastByProcess.get(tag!) ?? -1;
      expect(Number(n)).toBe(prev + 1); // each process's entries appear in its call order
      lastByProcess.set(tag!, Number(n));
    }
    expect([...lastByProcess.values()]).toEqual(Array(PROCESSES).fill(APPENDS - 1));
    expect(fs.existsSync(layout.lockFor(layout.timelineFile("run-conc")))).toBe(false);
    // Every line is the seed's; every entry's extras are in the sidecar, once, and join back.
    for (const e of lines.entries) expect(Object.keys(e)).toEqual(SEED_KEYS);
    expect(expectSidecarJoins(layout, "run-conc")).toBe(PROCESSES * APPENDS);
    const page = await queryTimeline(layout, { run_id: "run-conc", from_sequence: 100, limit: 50 });
    for (const e of page.entries) expect(e.ext).toEqual({ op: e.operation_id });
  }, 180_000);

  it(`${KILLS} writers killed with SIGKILL mid-burst: readable file, next writer continues with the next unused sequence, no lock left blocking`, async () => {
    const root = tempWorkspace();
    const layout = new WorkspaceLayout(root);
    let expectedNext: number;
    for (let trial = 0; trial < KILLS; trial++) {
      const worker = startWorker("timeline-append.mjs", [root, "run-crash", `k${trial}`, "0"]);
      await waitForOutput(worker.child, "started");
      // The first writer dies before it can append (a killed writer that wrote nothing leaves no file); the rest mid-burst.
      if (trial > 0) await new Promise((r) => setTimeout(r, 5 + Math.random() * 40));
      worker.child.kill("SIGKILL");
      await worker.done;
      const after = fs.existsSync(layout.timelineFile("run-crash")) ? readTimelineLines(layout, "run-crash") : { entries: [], unparseable: 0, tornTail: false };
      // At most one torn final line; every complete entry keeps the gap-free sequence.
      const seqs = sequences(after);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i));
      expectedNext = seqs.length;
      // Extras only for lines that are there (a line may have lost its extras, never the reverse).
      expectSidecarJoins(layout, "run-crash");
      // The next writer is not blocked by the dead holder's lock and continues where the file ends.
      const writer = new TimelineWriter(layout, () => 10_000_000);
      const outcome = await writer.append({ ts: "t", run_id: "run-crash", session_id: "run-crash", actor_type: "system", feature_id: null, tool_name: "x.y", mutating: false, operation_id: `check-${trial}`, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 0, transport: "mcp", ext: { op: `check-${trial}` } });
      writer.close();
      expect(outcome.sequence).toBe(expectedNext);
      expect(readTimelineLines(layout, "run-crash").tornTail).toBe(false);
      // The survivor's extras join its line even after a torn sidecar line.
      expectSidecarJoins(layout, "run-crash");
      const [own] = (await queryTimeline(layout, { run_id: "run-crash", from_sequence: expectedNext, limit: 1 })).entries;
      expect(own).toMatchObject({ operation_id: `check-${trial}`, transport: "mcp", ext: { op: `check-${trial}` } });
    }
  }, 240_000);

  it("6 processes spooling 300 entries each while 2 writers append and drain the spool (removing its folder) 300 times each: no spooled entry is lost", async () => {
    const root = tempWorkspace();
    const layout = new WorkspaceLayout(root);
    const spoolers = Array.from({ length: 6 }, (_, p) => startWorker("timeline-spool.mjs", [root, "run-spool", `s${p}`, "300"]).done);
    const appenders = Array.from({ length: 2 }, (_, p) => startWorker("timeline-append.mjs", [root, "run-spool", `a${p}`, "300"]).done);
    for (const r of await Promise.all([...spoolers, ...appenders])) expect(r.code, r.stderr).toBe(0);
    const writer = new TimelineWriter(layout, () => 10_000_000);
    await writer.flush("run-spool");
    writer.close();
    const ids = readTimelineLines(layout, "run-spool").entries.map((e) => String(e.operation_id));
    // Delivery is at-least-once (timeline-spool.ts): every entry is there, none twice unless a writer died.
    expect(new Set(ids).size).toBe(6 * 300 + 2 * 300);
    expect(fs.existsSync(layout.timelineSpoolDir("run-spool"))).toBe(false);
  }, 180_000);
});

