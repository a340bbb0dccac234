import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { HOSTILE_TOOL, reportWorkspace, snapshot, timelineLines, writeAgentRun } from "../../helpers/report-workspace.js";
import { tempDir } from "../../helpers/tmp.js";
import type { ReportData } from "../../../src/domains/report/report-types.js";

let root: string;
let layout: ReturnType<typeof reportWorkspace>["layout"];

beforeAll(() => {
  ({ root, layout } = reportWorkspace());
});

function embedded(file: string): ReportData {
  const html = fs.readFileSync(file, "utf8");
  const m = /<script type="application\/json" id="aop-report-data">([^<]*)<\/script>/.exec(html);
  if (!m) throw new Error("no data element");
  return JSON.parse(m[1]!) as ReportData;
}

describe("aop report", () => {
  it("writes .aop/report.html by default, owner-only, and prints its path alone on stdout", () => {
    const r = runCli(["report", "--root", root]);
    expect(r.code).toBe(0);
    const file = path.join(root, ".aop", "report.html");
    expect(r.stdout).toBe(`${file}\n`);
    expect(r.stderr).toMatch(/KB · 2 runs \(2 with entries, \d+ entries\) · 1 feature · 1 checkpoint/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const data = embedded(file);
    expect(data.runs.map((x) => [x.run_id, x.entries]).sort()).toEqual([["agent-run", timelineLines(layout, "agent-run").length], ["run:kernel", timelineLines(layout, "run:kernel").length]].sort());
    expect(data.features.items[0]).toMatchObject({ feature_id: "feat_login", chain: { status: "valid", entry_count: 2 } });
    expect(data.features.items[0]!.gates).toEqual([expect.objectContaining({ mode: "fast", result: "pass", evidence_trust: { status: "chained", chain_sequence: 1 } })]);
    const gateRuns = Object.values(data.ledger).filter((l) => l.tool_name === "gates.run");
    expect(gateRuns.map((l) => l.evidence?.trust.status)).toEqual(["chained", "chained"]);
    expect(data.checkpoints.items[0]).toMatchObject({ skill: "architect", next_action: "Write the error model" });
    expect(data.doctor.status).toBe("present");
    const replay = Object.values(data.ledger).find((l) => l.operation_id === "op-block-0001");
    expect(replay).toMatchObject({ status: "recorded", tool_name: "feature.set_status" });
    expect(JSON.parse(replay!.envelope_json!)).toMatchObject({ ok: true });
  });

  it("keeps a hostile tool name inside the data element", () => {
    const out = path.join(tempDir(), "r.html");
    runCli(["report", "--root", root, "--out", out]);
    const html = fs.readFileSync(out, "utf8");
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script>/gi)).toHaveLength(2);
    expect(embedded(out).timelines.some((t) => t.strings.includes(HOSTILE_TOOL))).toBe(true);
  });

  it("writes nothing but its output file", () => {
    const out = path.join(tempDir(), "r.html");
    const before = snapshot(root);
    expect(runCli(["report", "--root", root, "--out", out]).code).toBe(0);
    expect(snapshot(root)).toEqual(before);
  });

  it("--run-id (repeatable) narrows to those runs; --json says what it wrote", () => {
    const out = path.join(tempDir(), "one.html");
    const j = runJson<{ path: string; runs: number; embedded_runs: number; entries: number; bytes: number }>(["report", "--root", root, "--out", out, "--run-id", "agent-run"]);
    expect(j.json).toMatchObject({ path: out, runs: 1, embedded_runs: 1, entries: timelineLines(layout, "agent-run").length, bytes: fs.statSync(out).size });
    const both = runJson<{ runs: number }>(["report", "--root", root, "--out", out, "--run-id", "agent-run", "--run-id", "run:kernel"]);
    expect(both.json.runs).toBe(2);
  });

  it("--since leaves out older runs and entries", () => {
    const out = path.join(tempDir(), "since.html");
    expect(runCli(["report", "--root", root, "--out", out, "--since", "2026-03-01T09:00:05Z", "--run-id", "agent-run"]).code).toBe(0);
    expect(embedded(out).runs[0]).toMatchObject({ embedded_entries: 3, omitted_entries: 5 });
  });

  it("refuses a folder that is not a workspace, and creates nothing there", () => {
    const dir = tempDir();
    const r = runCli(["report", "--root", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error not_found: no aop workspace at/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("bad input: unknown run, bad --since, --out a folder, --diff with one run, --port without --serve", () => {
    expect(runCli(["report", "--root", root, "--run-id", "nope"]).stderr).toMatch(/replay_run_not_found.*\nhint: recent runs:/s);
    expect(runCli(["report", "--root", root, "--run-id", "../x"]).stderr).toMatch(/invalid_argument/);
    const since = runCli(["report", "--root", root, "--since", "yesterday"]);
    expect([since.code, since.stderr]).toEqual([2, expect.stringMatching(/--since must be an ISO 8601 time/)]);
    expect(runCli(["report", "--root", root, "--out", tempDir()]).stderr).toMatch(/is a folder/);
    expect(runCli(["report", "--root", root, "--diff", "agent-run"]).code).toBe(2);
    expect(runCli(["report", "--root", root, "--port", "8000"]).stderr).toMatch(/--port goes with --serve/);
  });

  it("--diff prints the calls two runs do not share", () => {
    const r = runCli(["report", "--root", root, "--diff", "run:kernel", "agent-run"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^A run:kernel \(\d+ entries\) {2}→ {2}B agent-run \(8 entries\)/);
    expect(r.stdout).toMatch(/\n\+\s+\d+\s+Read/);
    expect(r.stdout).toMatch(/\d+ changed · 8 added \(only in B\) · \d+ missing \(only in A\) · 0 unchanged/);
    // Agent text reaches the terminal with control characters escaped; the HTML-looking name is just text.
    expect(r.stdout).toContain("<img src=x");
    const j = runJson<{ summary: { added: number }; rows: { kind: string; b: { tool_name: string } | null }[] }>(["report", "--root", root, "--diff", "run:kernel", "agent-run"]);
    expect(j.json.summary.added).toBe(8);
    expect(j.json.rows.filter((x) => x.kind === "added").map((x) => x.b!.tool_name)).toContain("Task");
    expect(fs.existsSync(path.join(root, ".aop", "diff.html"))).toBe(false);
  });

  it("--diff escapes control characters an agent put in a tool name", () => {
    writeAgentRun(layout, "escape-run");
    const file = layout.timelineFile("escape-run");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"tool_name":"Task"', '"tool_name":"Task\\u001b]0;pwned\\u0007"'));
    const r = runCli(["report", "--root", root, "--diff", "agent-run", "escape-run"]);
    expect(r.stdout).not.toContain("\u001b]");
    expect(r.stdout).toContain("Task\\x1b]0;pwned\\x07");
    fs.rmSync(file);
  });

  it("--open hands the file to the platform's opener", () => {
    const bin = tempDir();
    const log = path.join(bin, "opened.txt");
    fs.writeFileSync(path.join(bin, "xdg-open"), `#!/bin/sh\necho "$1" > ${log}\n`, { mode: 0o755 });
    const out = path.join(tempDir(), "open.html");
    expect(runCli(["report", "--root", root, "--out", out, "--open"], { env: { PATH: `${bin}:${process.env.PATH}` } }).code).toBe(0);
    for (let i = 0; i < 50 && !fs.existsSync(log); i++) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    expect(fs.readFileSync(log, "utf8").trim()).toBe(`file://${out}`);
  });
});
