import { check } from "../../../../src/domains/doctor/checks/drift-006-timeline-corruption.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES, entry } from "../drift-fixtures.js";

const meta = (over: object) => ({ run_id: "r", sequence_head: 2, entry_count: 3, started_at: "t", last_entry_at: "t", file_size: 0, error_count: 0, skipped_lines: 0, repaired_torn_lines: 0, sequence_anomalies: 0, dropped_entries: 0, first_dropped_at: null, last_dropped_at: null, index: [], ...over });

/** A meta as the upstream orchestrator writes it: the five contract fields, its own write times. */
const upstreamMeta = (runId: string, head: number, count: number) => ({ run_id: runId, sequence_head: head, entry_count: count, started_at: "2026-06-01T11:00:00.090Z", last_entry_at: "2026-06-01T11:00:00.300Z" });

const OK = "replay timelines are intact";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no timelines", workspace: (f) => f, ok: OK },
    { name: "a clean timeline", workspace: (f) => f.timeline("r", [entry(0), entry(1), entry(2)]), ok: OK },
    { name: "a sidecar with extras of its lines (one line torn)", workspace: (f) => f.timeline("r", [entry(0), entry(1)]).write(".aop/runtime/replay/r.ext.jsonl", '{"sequence":0,"transport":"mcp"}\n{"sequence":1,"tr'), ok: OK },
    { name: "an upstream timeline with bare-hex hashes and a run: id", workspace: (f) => f.timeline("run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", [entry(0, { request_hash: "a".repeat(64) }), entry(1)]), ok: OK },
    // JSON.parse reads the escaped key as `sequence`: the line is an entry.
    { name: "a line whose key is spelled with an escape", workspace: (f) => f.timeline("r", [entry(0), '{"sequ\\u0065nce":1,"tool_name":"x"}', entry(2)]), ok: OK },
    // The upstream orchestrator's timelines (docs/compatibility.md): a meta with exactly the contract's five fields,
    // pretty-printed without a trailing newline; bare-hex hashes; `ts` not in sequence order.
    {
      name: "an upstream meta with only the five contract fields, agreeing with the file",
      workspace: (f) => f.timeline("run:up", [entry(0, { ts: "2026-06-01T11:00:00.050Z" }), entry(1, { ts: "2026-06-01T11:00:00.020Z", request_hash: "e1".repeat(32) }), entry(2)]).write(".aop/runtime/replay/run:up.meta.json", JSON.stringify(upstreamMeta("run:up", 2, 3), null, 2)),
      ok: OK,
    },
  ],
  invalid: [
    {
      name: "a sidecar with extras past the timeline's last entry (info)",
      workspace: (f) => f.timeline("r", [entry(0), entry(1)]).write(".aop/runtime/replay/r.ext.jsonl", '{"sequence":1,"transport":"mcp"}\n{"sequence":5,"transport":"mcp"}\n{"sequence":6,"marker":"Stop"}\n'),
      findings: [{ severity: "info", message: "run r: its sidecar holds extras for 2 sequences past the timeline's last entry (1); readers ignore them", refs: [".aop/runtime/replay/r.ext.jsonl"] }],
    },
    { name: "an unparseable line", workspace: (f) => f.timeline("r", [entry(0), "{nope", entry(1)]), findings: [{ message: /^run r: 1 unreadable line\(s\) \(1 not JSON, 0 not an entry\)$/ }] },
    { name: "JSON lines that are not entries", workspace: (f) => f.timeline("r", [entry(0), "[1]", '{"sequence":1.5,"tool_name":"x"}', '{"sequence":1}', entry(1)]), findings: [{ message: /^run r: 3 unreadable line\(s\) \(0 not JSON, 3 not an entry\)$/ }] },
    { name: "a sequence gap", workspace: (f) => f.timeline("r", [entry(0), entry(1), entry(4)]), findings: [{ message: /1 sequence gap\(s\), first after sequence 1/ }] },
    { name: "a duplicate sequence", workspace: (f) => f.timeline("r", [entry(0), entry(1), entry(1)]), findings: [{ message: /1 duplicate or out-of-order sequence\(s\), first 1/ }] },
    { name: "a torn last line", workspace: (f) => f.write(".aop/runtime/replay/r.timeline.jsonl", JSON.stringify(entry(0)) + '\n{"ts":"x","seq'), findings: [{ message: /the last line is incomplete/ }] },
    { name: "a timeline that is not a regular file", workspace: (f) => f.mkdir(".aop/runtime/replay/r.timeline.jsonl"), findings: [{ message: /^run r: timeline not readable: \w+ — / }] },
    { name: "a meta claiming more than the file", workspace: (f) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", meta({ file_size: 99_999 })), findings: [{ message: /meta claims 3 entries up to sequence 2, but the file has 1/ }] },
    { name: "an upstream five-field meta claiming more than the file", workspace: (f) => f.timeline("run:up", [entry(0), entry(1)]).write(".aop/runtime/replay/run:up.meta.json", JSON.stringify(upstreamMeta("run:up", 999, 1000), null, 2)), findings: [{ message: /^run run:up: its meta claims 1000 entries up to sequence 999, but the file has 2 \(truncated\?\)$/ }] },
    { name: "an upstream five-field meta behind the file", workspace: (f) => f.timeline("run:up", [entry(0), entry(1), entry(2)]).write(".aop/runtime/replay/run:up.meta.json", JSON.stringify(upstreamMeta("run:up", 1, 2), null, 2)), findings: [{ message: /^run run:up: its meta is behind the file \(2 of 3 entries/ }] },
    { name: "a meta naming another run", workspace: (f) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", upstreamMeta("other", 0, 1)), findings: [{ message: /^run r: its meta names run other$/ }] },
    { name: "a meta that is not JSON", workspace: (f) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", "{oops"), findings: [{ message: /^run r: its meta file is not valid JSON \(the next write rebuilds it from the timeline\)$/ }] },
    { name: "a meta without the contract's fields", workspace: (f) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", { run_id: "r" }), findings: [{ message: /^run r: its meta file does not hold run_id, sequence_head and entry_count/ }] },
    {
      name: "entries dropped by max_entries_per_run",
      workspace: (f) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.meta.json", meta({ sequence_head: 0, entry_count: 1, file_size: JSON.stringify(entry(0)).length + 1, dropped_entries: 4, first_dropped_at: "a", last_dropped_at: "b" })),
      findings: [{ message: /4 call\(s\) not recorded because the run reached max_entries_per_run/ }],
    },
    { name: "entries waiting in the spool", workspace: (f) => f.timeline("r", [entry(0)]).write(".aop/runtime/replay/r.spool/000000000000001-1-a.json", entry(1)), findings: [{ severity: "info", message: /run r: 1 entry waits in the spool/ }] },
    { name: "runs pruned by max_runs", workspace: (f) => f.write(".aop/runtime/replay/retention.json", { pruned_runs: 2, pruned_entries: 10, last_pruned_at: "t", recent: [] }), findings: [{ severity: "info", message: /2 older run\(s\) \(10 entries\) were removed by max_runs/ }] },
    {
      name: "says it is disabled when the policy turns the timeline off",
      workspace: (f) => f.write("agentic/orchestrator/policy.yaml", "observability:\n  replay:\n    enabled: false\n").timeline("r", ["garbage"]),
      findings: [{ severity: "info", message: /disabled by policy/ }],
    },
  ],
});
