import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { agentSpanId, entrySpanId, rootSpanId, stepSpanId, traceIdFor } from "../../../src/domains/export/span-ids.js";

const firstBytes = (text: string, bytes: number) => createHash("sha256").update(text, "utf8").digest().subarray(0, bytes).toString("hex");

describe("span ids (docs/otel.md, Ids)", () => {
  it.each(["run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", "claude-5e1f0c2a", "adhoc-2026-05-01", "ünïcode-run"])("trace id of %s = first 16 bytes of sha256('aop:' + run_id)", (runId) => {
    expect(traceIdFor(runId)).toBe(firstBytes(`aop:${runId}`, 16));
    expect(traceIdFor(runId)).toMatch(/^[0-9a-f]{32}$/);
  });

  it("entry span id = first 8 bytes of sha256(run_id + ':' + sequence)", () => {
    for (const seq of [0, 1, 255, 49_999]) expect(entrySpanId("run:a", seq)).toBe(firstBytes(`run:a:${seq}`, 8));
    expect(entrySpanId("run:a", 7)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("is deterministic and distinct across runs, sequences and the enclosing spans", () => {
    expect(entrySpanId("r", 3)).toBe(entrySpanId("r", 3));
    const ids = new Set<string>();
    for (const run of ["r", "r:1", "s"]) {
      ids.add(rootSpanId(run));
      ids.add(agentSpanId(run, "agent-1"));
      for (let seq = 0; seq < 200; seq++) {
        ids.add(entrySpanId(run, seq));
        ids.add(stepSpanId(run, seq, 0));
        ids.add(stepSpanId(run, seq, 1));
      }
    }
    expect(ids.size).toBe(3 * (2 + 200 * 3));
    expect(traceIdFor("r")).not.toBe(traceIdFor("s"));
  });

  it("the enclosing spans hash inputs no sequence can produce", () => {
    expect(rootSpanId("r")).toBe(firstBytes("r:root", 8));
    expect(agentSpanId("r", "a1")).toBe(firstBytes("r:agent:a1", 8));
    expect(stepSpanId("r", 4, 2)).toBe(firstBytes("r:4:step:2", 8));
  });
});
