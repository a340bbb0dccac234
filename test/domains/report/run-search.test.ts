import { describe, expect, it } from "vitest";
import { searchRuns, type SearchableEntry } from "../../../src/domains/report/run-search.js";

function entry(sequence: number, ts_ms: number, over: Partial<SearchableEntry> = {}): SearchableEntry {
  return { index: sequence, sequence, ts_ms, tool_name: "feature.get", result: "ok", error_code: null, feature_id: null, run_id: "r", session_id: null, operation_id: null, agent_type: null, ...over };
}

describe("the report page's search across runs", () => {
  const runs = [
    { run_id: "run:a", entries: [entry(0, 100, { feature_id: "login-page" }), entry(1, 300, { tool_name: "feature.set_status", result: "error", error_code: "version_conflict", feature_id: "login-page" })] },
    { run_id: "run:b", entries: [entry(0, 200, { tool_name: "Bash", session_id: "sess-login" }), entry(1, 300, { tool_name: "gates.run" })] },
  ];

  it("matches every word at the start of a word of the entry, newest first", () => {
    expect(searchRuns(runs, "login").hits.map((h) => `${h.run_id}#${h.entry.sequence}`)).toEqual(["run:a#1", "run:b#0", "run:a#0"]);
    expect(searchRuns(runs, "LOGIN conflict").hits.map((h) => `${h.run_id}#${h.entry.sequence}`)).toEqual(["run:a#1"]);
    expect(searchRuns(runs, "ogin").total).toBe(0);
    expect(searchRuns(runs, "error").hits.map((h) => h.entry.error_code)).toEqual(["version_conflict"]);
  });

  it("orders entries of the same time by run, then sequence (descending), and caps the list but not the count", () => {
    const r = searchRuns(runs, "feature gates set".split(" ")[0]!, 1);
    expect(r.total).toBe(2);
    expect(r.hits.map((h) => `${h.run_id}#${h.entry.sequence}`)).toEqual(["run:a#1"]);
    expect(searchRuns(runs, "r").hits.map((h) => `${h.run_id}#${h.entry.sequence}`).slice(0, 2)).toEqual(["run:b#1", "run:a#1"]);
  });

  it("an empty query finds nothing (the box is cleared)", () => {
    expect(searchRuns(runs, "  ,. ")).toEqual({ hits: [], total: 0 });
  });
});
