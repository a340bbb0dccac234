import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { diffRuns } from "../../../src/domains/report/diff.js";
import { entry } from "./report-fixtures.js";

const calls = (tools: string[]) => tools.map((t, i) => entry(i, { tool_name: t }));

describe("diffing two runs", () => {
  it("two identical runs: every call unchanged", () => {
    const d = diffRuns(calls(["a", "b", "c"]), calls(["a", "b", "c"]));
    expect(d.summary).toEqual({ same: 3, changed: 0, added: 0, missing: 0 });
    expect(d.method).toBe("aligned");
  });

  it("one call added early shows as one added call, not as every later call changed", () => {
    const d = diffRuns(calls(["a", "b", "c", "d", "e"]), calls(["a", "x", "b", "c", "d", "e"]));
    expect(d.summary).toEqual({ same: 5, changed: 0, added: 1, missing: 0 });
    expect(d.rows.find((r) => r.kind === "added")).toMatchObject({ a: null, b: 1 });
  });

  it("a call missing in B, and one whose result and error code changed", () => {
    const a = calls(["a", "b", "c", "d"]);
    const b = calls(["a", "c", "d"]);
    b[2] = entry(2, { tool_name: "d", result: "error", error_code: "gate_mode_not_found" });
    const d = diffRuns(a, b);
    expect(d.summary).toEqual({ same: 2, changed: 1, added: 0, missing: 1 });
    expect(d.rows.find((r) => r.kind === "missing")).toMatchObject({ a: 1, b: null });
    expect(d.rows.find((r) => r.kind === "changed")!.changes).toEqual([
      { field: "result", a: "ok", b: "error" },
      { field: "error_code", a: null, b: "gate_mode_not_found" },
    ]);
  });

  it("pairs calls by operation id wherever they sit, and reports changed arguments and idempotency", () => {
    const a = [entry(0, { tool_name: "feature.init", operation_id: "op-1", request_hash: "sha256:aa", mutating: true, idempotency_status: "new" }), entry(1, { tool_name: "Read" })];
    const b = [entry(0, { tool_name: "Read" }), entry(1, { tool_name: "feature.init", operation_id: "op-1", request_hash: "sha256:bb", mutating: true, idempotency_status: "mismatch" })];
    const d = diffRuns(a, b);
    const byOp = d.rows.filter((r) => r.by === "operation_id");
    expect(byOp).toHaveLength(1);
    expect(byOp[0]!.changes.map((c) => c.field)).toEqual(["idempotency_status", "request_hash"]);
  });

  it("runs too different to align are paired by order past their common start", () => {
    const a = calls(["s", ...Array.from({ length: 50 }, (_, i) => `a${i}`)]);
    const b = calls(["s", ...Array.from({ length: 50 }, (_, i) => `b${i}`)]);
    const d = diffRuns(a, b, { maxEdits: 10 });
    expect(d.method).toBe("positional");
    expect(d.summary).toEqual({ same: 1, changed: 0, added: 50, missing: 50 });
  });

  it("every entry of A and of B appears exactly once, in order", () => {
    const tools = fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 40 });
    fc.assert(
      fc.property(tools, tools, fc.integer({ min: 1, max: 60 }), (ta, tb, maxEdits) => {
        const a = calls(ta);
        const b = calls(tb);
        const d = diffRuns(a, b, { maxEdits });
        const seen = (side: "a" | "b") => d.rows.map((r) => r[side]).filter((x): x is number => x !== null);
        expect(seen("a")).toEqual(a.map((_, i) => i));
        expect(seen("b")).toEqual(b.map((_, i) => i));
        for (const r of d.rows) if (r.a !== null && r.b !== null) expect(a[r.a]!.tool_name).toBe(b[r.b]!.tool_name);
        if (d.method === "aligned") {
          // A shortest edit script: added + missing equals |A| + |B| − 2·LCS.
          expect(d.summary.added + d.summary.missing).toBe(ta.length + tb.length - 2 * lcs(ta, tb));
        }
      }),
    );
  });
});

describe("diffing runs with operation ids", () => {
  it("still covers every entry once, in order, pairing only equal keys", () => {
    const side = fc.array(fc.record({ tool: fc.constantFrom("a", "b"), op: fc.option(fc.constantFrom("op-1", "op-2", "op-3", "op-4"), { nil: null }) }), { maxLength: 30 });
    fc.assert(
      fc.property(side, side, (sa, sb) => {
        const a = sa.map((x, i) => entry(i, { tool_name: x.tool, operation_id: x.op }));
        const b = sb.map((x, i) => entry(i, { tool_name: x.tool, operation_id: x.op }));
        const d = diffRuns(a, b);
        const seen = (s: "a" | "b") => d.rows.map((r) => r[s]).filter((x): x is number => x !== null);
        expect(seen("a")).toEqual(a.map((_, i) => i));
        expect(seen("b")).toEqual(b.map((_, i) => i));
        for (const r of d.rows) if (r.by === "operation_id") expect(a[r.a!]!.operation_id).toBe(b[r.b!]!.operation_id);
      }),
    );
  });
});

function lcs(a: string[], b: string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  return dp[a.length]![b.length]!;
}

