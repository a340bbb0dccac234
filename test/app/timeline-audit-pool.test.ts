// DRIFT_006's audits on a worker thread and the main thread must be exactly the audits of one thread.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { distUrl } from "../helpers/paths.js";
import { tempWorkspace } from "../helpers/tmp.js";

import type * as PoolModule from "../../src/app/timeline-audit-pool.js";
import type * as LayoutModule from "../../src/store/layout.js";

type Pool = typeof PoolModule;
type Layouts = typeof LayoutModule;

describe("auditTimelines", () => {
  it("a worker and this thread together report what this thread alone reports, in run order", async () => {
    // The built modules: the worker thread runs dist/app/timeline-audit-worker.*.
    const { auditTimelines } = (await import(distUrl("app/timeline-audit-pool.js"))) as Pool;
    const { WorkspaceLayout } = (await import(distUrl("store/layout.js"))) as Layouts;
    const root = tempWorkspace();
    const layout = new WorkspaceLayout(root);
    fs.mkdirSync(layout.replayDir, { recursive: true });
    const runIds: string[] = [];
    for (let r = 0; r < 12; r++) {
      const id = `run-${r}`;
      runIds.push(id);
      const lines = Array.from({ length: 200 }, (_, i) => JSON.stringify({ sequence: r % 3 === 0 && i === 50 ? 70 : i, tool_name: "feature.get", note: "é" }));
      if (r % 4 === 1) lines.splice(20, 0, "garbage", "[1]", '{"sequ\\u0065nce":1,"tool_name":"x"}');
      fs.writeFileSync(layout.timelineFile(id), lines.join("\n") + (r % 5 === 2 ? '\n{"torn' : "\n"));
    }
    // One that is not a regular file (refused with an AopError), one that vanished (a plain error).
    fs.rmSync(layout.timelineFile("run-7"));
    fs.mkdirSync(layout.timelineFile("run-7"));
    runIds.push("run-gone");
    const alone = await auditTimelines(layout, runIds, Infinity);
    const shared = await auditTimelines(layout, runIds, 0);
    expect(shared.map(describeOutcome)).toEqual(alone.map(describeOutcome));
    expect(alone[7]).toBeInstanceOf(Error);
    // The refused one crosses from the worker whole: its hint and details too, not only code and message.
    const refused = (a: unknown) => a as { hint?: string; details: Record<string, unknown> };
    expect(refused(shared[7]).hint).toBe(refused(alone[7]).hint);
    expect(refused(shared[7]).hint).toEqual(expect.any(String));
    expect(refused(shared[7]).details.path).toEqual(refused(alone[7]).details.path);
    expect(alone[12]).toBeInstanceOf(Error);
    expect(alone.filter((a) => !(a instanceof Error) && a.unparseable + a.invalid > 0)).toHaveLength(3);
    expect(path.basename(layout.timelineFile("run-0"))).toBe("run-0.timeline.jsonl");
    // A worker that dies at once, one whose file is not there, or one that claims a run and ends without
    // reporting it (code 0): this thread audits every run left undone itself.
    const dying = path.join(root, "dying-worker.cjs");
    fs.writeFileSync(dying, "throw new Error('no worker today');\n");
    const quitting = path.join(root, "quitting-worker.cjs");
    fs.writeFileSync(quitting, "const { workerData } = require('node:worker_threads');\nAtomics.store(workerData.next, 0, workerData.runIds.length);\n");
    for (const file of [dying, path.join(root, "missing-worker.cjs"), quitting]) {
      const pending = auditTimelines(layout, runIds, 0, () => new URL(`file://${file}`));
      // Keep this thread busy while the worker starts, so the worker claims the runs before this thread can.
      for (const until = Date.now() + 300; Date.now() < until; );
      const takenOver = await pending;
      expect(takenOver.map(describeOutcome)).toEqual(alone.map(describeOutcome));
    }
  });
});

/** What DRIFT_006 reports of an outcome: an AopError's code and message, another error's message (as a failed check). */
function describeOutcome(a: unknown): unknown {
  if (a instanceof Error) return a.name === "AopError" ? { error: a.message, code: (a as { code?: unknown }).code } : { error: a.message };
  return a;
}
