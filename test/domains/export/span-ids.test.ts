import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { agentSpanId, entrySpanId, rootSpanId, stepSpanId, traceIdFor } from "../../../src/domains/export/span-ids.js";

const firstBytes = (text: string, bytes: number) => createHash("sha256").update(text, "utf8").digest().subarray(0, bytes).toString("hex");
const WS = "0123456789abcdef0123456789abcdef";
const OTHER = "fedcba9876543210fedcba9876543210";

describe("span ids (docs/otel.md, Ids)", () => {
  it.each(["run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", "claude-5e1f0c2a", "adhoc-2026-05-01", "ünïcode-run"])("trace id of %s = first 16 bytes of sha256('aop:' + workspace_id + ':' + run_id)", (runId) => {
    expect(traceIdFor(WS, runId)).toBe(firstBytes(`aop:${WS}:${runId}`, 16));
    expect(traceIdFor(WS, runId)).toMatch(/^[0-9a-f]{32}$/);
  });

  it("entry span id = first 8 bytes of sha256(workspace_id + ':' + run_id + ':' + sequence)", () => {
    for (const seq of [0, 1, 255, 49_999]) expect(entrySpanId(WS, "run:a", seq)).toBe(firstBytes(`${WS}:run:a:${seq}`, 8));
    expect(entrySpanId(WS, "run:a", 7)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("is deterministic and distinct across runs, sequences and the enclosing spans", () => {
    expect(entrySpanId(WS, "r", 3)).toBe(entrySpanId(WS, "r", 3));
    expect(traceIdFor(WS, "r")).toBe(traceIdFor(WS, "r"));
    const ids = new Set<string>();
    for (const run of ["r", "r:1", "s"]) {
      ids.add(rootSpanId(WS, run));
      ids.add(agentSpanId(WS, run, "agent-1"));
      for (let seq = 0; seq < 200; seq++) {
        ids.add(entrySpanId(WS, run, seq));
        ids.add(stepSpanId(WS, run, seq, 0));
        ids.add(stepSpanId(WS, run, seq, 1));
      }
    }
    expect(ids.size).toBe(3 * (2 + 200 * 3));
    expect(traceIdFor(WS, "r")).not.toBe(traceIdFor(WS, "s"));
  });

  it("two workspaces with the same run id share no trace and no span", () => {
    for (const run of ["run:demo", "adhoc-2026-05-01"]) {
      expect(traceIdFor(WS, run)).not.toBe(traceIdFor(OTHER, run));
      expect(rootSpanId(WS, run)).not.toBe(rootSpanId(OTHER, run));
      expect(entrySpanId(WS, run, 0)).not.toBe(entrySpanId(OTHER, run, 0));
      expect(agentSpanId(WS, run, "a")).not.toBe(agentSpanId(OTHER, run, "a"));
      expect(stepSpanId(WS, run, 0, 0)).not.toBe(stepSpanId(OTHER, run, 0, 0));
    }
  });

  it("the enclosing spans hash inputs no sequence can produce", () => {
    expect(rootSpanId(WS, "r")).toBe(firstBytes(`${WS}:r:root`, 8));
    expect(agentSpanId(WS, "r", "a1")).toBe(firstBytes(`${WS}:r:agent:a1`, 8));
    expect(stepSpanId(WS, "r", 4, 2)).toBe(firstBytes(`${WS}:r:4:step:2`, 8));
  });

  it("refuses a workspace id that is not one (a run id in its place would hash without complaint)", () => {
    for (const bad of ["run:demo", "", WS.toUpperCase(), WS.slice(1)]) {
      expect(() => traceIdFor(bad, "run:demo")).toThrow(expect.objectContaining({ code: "invalid_argument" }));
      expect(() => entrySpanId(bad, "run:demo", 0)).toThrow(expect.objectContaining({ code: "invalid_argument" }));
    }
  });
});
