import { describe, expect, it } from "vitest";
import { applyFilter, isFiltering, NO_FILTER, searchText, type EntryFilter } from "../../../src/domains/report/filters.js";
import { entry } from "./report-fixtures.js";

const entries = [
  entry(0, { tool_name: "feature.init", mutating: true, idempotency_status: "new", feature_id: "feat_a", operation_id: "op-aaaa1111" }),
  entry(1, { tool_name: "feature.init", mutating: true, idempotency_status: "replay", feature_id: "feat_a", operation_id: "op-aaaa1111" }),
  entry(2, { tool_name: "feature.get", result: "error", error_code: "feature_not_found", feature_id: "ghost" }),
  entry(3, { tool_name: "Read", session_id: "5f0c2a8e-1d3b" }),
  entry(4, { tool_name: "Edit", mutating: true, result: "error", error_code: "tool_error", agent_id: "agent-x", agent_type: "Explore" }),
];

const f = (over: Partial<EntryFilter>): EntryFilter => ({ ...NO_FILTER, ...over });
const seqs = (filter: EntryFilter) => Array.from(applyFilter(entries, filter).matches).map((i) => entries[i]!.sequence);

describe("entry filters", () => {
  it.each([
    ["tool", f({ tool: "feature.init" }), [0, 1]],
    ["result", f({ result: "error" }), [2, 4]],
    ["idempotency", f({ idempotency: "replay" }), [1]],
    ["feature", f({ feature: "feat_a" }), [0, 1]],
    ["no feature", f({ feature: "" }), [3, 4]],
    ["mutating", f({ mutating: "yes" }), [0, 1, 4]],
    ["read-only", f({ mutating: "no" }), [2, 3]],
    ["text: error code", f({ text: "NOT_FOUND" }), [2]],
    ["text: session prefix", f({ text: "5f0c2a8e" }), [3]],
    ["text: operation id", f({ text: "op-aaaa" }), [0, 1]],
    ["text: subagent type", f({ text: "explore" }), [4]],
    ["text: sequence", f({ text: "3" }), [3]],
    ["combined", f({ mutating: "yes", result: "error" }), [4]],
    ["nothing", f({ tool: "feature.init", result: "error" }), []],
  ])("%s", (_name, filter, expected) => expect(seqs(filter)).toEqual(expected));

  it("counts each facet's values with the other filters applied", () => {
    const { counts } = applyFilter(entries, f({ result: "error" }));
    expect(Object.fromEntries(counts.tool)).toEqual({ "feature.get": 1, Edit: 1 });
    // The result facet ignores its own filter: how many each choice would give.
    expect(Object.fromEntries(counts.result)).toEqual({ ok: 3, error: 2 });
    expect(Object.fromEntries(counts.feature)).toEqual({ ghost: 1, "": 1 });
    expect(Object.fromEntries(counts.mutating)).toEqual({ no: 1, yes: 1 });
  });

  it("uses precomputed search texts when given, with the same result", () => {
    const filter = f({ text: "feature" });
    expect(applyFilter(entries, filter, entries.map(searchText)).matches).toEqual(applyFilter(entries, filter).matches);
  });

  it("isFiltering ignores blank text", () => {
    expect(isFiltering(f({ text: "  " }))).toBe(false);
    expect(isFiltering(f({ feature: "" }))).toBe(true);
  });
});
