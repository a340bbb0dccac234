import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-006-timeline-corruption.js";
import { DriftFixture, entry } from "../drift-fixtures.js";

const meta = (over: object) => ({ run_id: "r", sequence_head: 2, entry_count: 3, started_at: "t", last_entry_at: "t", file_size: 0, error_count: 0, skipped_lines: 0, repaired_torn_lines: 0, sequence_anomalies: 0, dropped_entries: 0, first_dropped_at: null, last_dropped_at: null, index: [], ...over });

/** A meta as the upstream orchestrator writes it: the five contract fields, its own write times. */
const upstreamMeta = (runId: string, head: number, count: number) => ({ run_id: runId, sequence_head: head, entry_count: count, started_at: "2026-06-01T11:00:00.090Z", last_entry_at: "2026-06-01T11:00:00.300Z" });

describe(check.id, () => {
  it.each([
    ["no timelines", (f: DriftFixture) => f, []],
    ["a clean timeline", (f: DriftFixture) => f.timeline("r", [entry(0), entry(1), entry(2)]), []],
    ["an upstream timeline with bare-hex hashes and a run: id", (f: DriftFixture) => f.timeline("run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", [entry(0, { request_hash: "a".repeat(64) }), entry(1)]), []],
    ["an unparseable line", (f: DriftFixture) => f.timeline("r", [entry(0), "{nope", entry(1)]), [/run r: 1 unreadable line\(s\)/]],
    ["a sequence gap", (f: DriftFixture) => f.timeline("r", [entry(0), entry(1), entry(4)]), [/1 sequence gap\(s\), first after sequence 1/]],
    ["a duplicate sequence", (f: DriftFixture) => f.timeline("r", [entry(0), entry(1), entry(1)]), [/1 duplicate or out-of-order sequence\(s\), first 1/]],
    ["a torn last line", (f: DriftFixture) => f.write(".aop/runtime/replay/r.timeline.jsonl", JSON.stringify(entry(0)) + '\n{"ts":"x","seq'), [/the last line is incomplete/]],
    ["a meta claiming more than the file", (f: DriftFixture) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", meta({ file_size: 99_999 })), [/meta claims 3 entries up to sequence 2, but the file has 1/]],
    // The upstream orchestrator's timelines (docs/compatibility.md): a meta with exactly the contract's five fields,
    // pretty-printed without a trailing newline; bare-hex hashes; `ts` not in sequence order.
    ["an upstream meta with only the five contract fields, agreeing with the file", (f: DriftFixture) => f.timeline("run:up", [entry(0, { ts: "2026-06-01T11:00:00.050Z" }), entry(1, { ts: "2026-06-01T11:00:00.020Z", request_hash: "e1".repeat(32) }), entry(2)]).write(".aop/runtime/replay/run:up.meta.json", JSON.stringify(upstreamMeta("run:up", 2, 3), null, 2)), []],
    ["an upstream five-field meta claiming more than the file", (f: DriftFixture) => f.timeline("run:up", [entry(0), entry(1)]).write(".aop/runtime/replay/run:up.meta.json", JSON.stringify(upstreamMeta("run:up", 999, 1000), null, 2)), [/^run run:up: its meta claims 1000 entries up to sequence 999, but the file has 2 \(truncated\?\)$/]],
    ["an upstream five-field meta behind the file", (f: DriftFixture) => f.timeline("run:up", [entry(0), entry(1), entry(2)]).write(".aop/runtime/replay/run:up.meta.json", JSON.stringify(upstreamMeta("run:up", 1, 2), null, 2)), [/^run run:up: its meta is behind the file \(2 of 3 entries/]],
    ["a meta naming another run", (f: DriftFixture) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", upstreamMeta("other", 0, 1)), [/^run r: its meta names run other$/]],
    ["a meta that is not JSON", (f: DriftFixture) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", "{oops"), [/^run r: its meta file is not valid JSON \(the next write rebuilds it from the timeline\)$/]],
    ["a meta without the contract's fields", (f: DriftFixture) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", { run_id: "r" }), [/^run r: its meta file does not hold run_id, sequence_head and entry_count/]],
    ["entries dropped by max_entries_per_run", (f: DriftFixture) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", meta({ sequence_head: 0, entry_count: 1, file_size: JSON.stringify(entry(0)).length + 1, dropped_entries: 4, first_dropped_at: "a", last_dropped_at: "b" })), [/4 call\(s\) not recorded because the run reached max_entries_per_run/]],
    ["entries waiting in the spool", (f: DriftFixture) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.spool/000000000000001-1-a.json", entry(1)), [/run r: 1 entry waits in the spool/]],
    ["runs pruned by max_runs", (f: DriftFixture) => f.write(".aop/runtime/replay/retention.json", { pruned_runs: 2, pruned_entries: 10, last_pruned_at: "t", recent: [] }), [/2 older run\(s\) \(10 entries\) were removed by max_runs/]],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
  });

  it("says it is disabled when the policy turns the timeline off", async () => {
    const findings = await new DriftFixture().write("agentic/orchestrator/policy.yaml", "observability:\n  replay:\n    enabled: false\n").timeline("r", ["garbage"]).run(check);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ id: check.id, severity: "info", message: expect.stringMatching(/disabled by policy/) });
  });
});
