import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { runCli, runJson } from "../../helpers/cli.js";
import { CLI_BIN } from "../../helpers/paths.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

let seed: string;

/** A run of four calls (a success, an error, its replay, a read of a missing feature), made once per file. */
beforeAll(() => {
  seed = tempWorkspace();
  const r = ["--root", seed, "--run-id", "run:demo"];
  runCli(["feature", "init", "feat_a", ...r]);
  runCli(["call", "feature.init", "--args", '{"feature_id":"feat_a"}', "--operation-id", "op-cli-000001", ...r]);
  runCli(["call", "feature.init", "--args", '{"feature_id":"feat_a"}', "--operation-id", "op-cli-000001", ...r]);
  runCli(["feature", "show", "ghost", ...r]);
});

/** A copy of the seeded workspace of this test's own. */
function seeded(): string {
  const root = path.join(tempDir("aop-replay-"), "ws");
  fs.cpSync(seed, root, { recursive: true });
  return root;
}

describe("aop replay", () => {
  it("prints aligned columns with ok/ERROR, M, idempotency badge, tool, feature and a footer", () => {
    const root = seeded();
    const r = runCli(["replay", "--run-id", "run:demo", "--root", root]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^SEQ\s+TIME\s+RESULT\s+M\s+IDEMP\s+TOOL\s+FEATURE\s+LATENCY$/);
    expect(lines[1]).toMatch(/^\s+0\s+\d{2}:\d{2}:\d{2}\.\d{3}\s+ok\s+M\s+new\s+feature\.init\s+feat_a\s+[\d.]+ms$/);
    expect(lines[2]).toMatch(/ERROR feature_already_exists\s+M\s+new\s+feature\.init/);
    expect(lines[3]).toMatch(/ERROR feature_already_exists\s+M\s+REPLAY\s+feature\.init/);
    expect(lines[4]).toMatch(/ERROR feature_not_found\s+-\s+feature\.get\s+ghost/);
    expect(r.stdout).toMatch(/4 of 4 matching entries \(seq 0–3\) · 3 errors on this page/);
  });

  it("filters and pages, with a hint for the next page", () => {
    const root = seeded();
    const r = runCli(["replay", "--run-id", "run:demo", "--result", "error", "--limit", "1", "--root", root]);
    expect(r.stdout).toMatch(/1 of 3 matching entries/);
    expect(r.stdout).toMatch(/next page: aop replay --run-id run:demo --from-sequence 2 --limit 1/);
    const j = runJson<{ entries: { sequence: number }[]; total_matched: number }>(["replay", "--run-id", "run:demo", "--tool", "feature.get", "--root", root]);
    expect(j.json.entries.map((e) => e.sequence)).toEqual([3]);
  });

  it("--list shows runs with entries and errors", () => {
    const root = seeded();
    const r = runCli(["replay", "--list", "--root", root]);
    expect(r.stdout).toMatch(/run:demo\s+4\s+3\s+/);
    const j = runJson<{ runs: { run_id: string; entries: number }[] }>(["replay", "--list", "--root", root]);
    expect(j.json.runs.find((x) => x.run_id === "run:demo")!.entries).toBeGreaterThanOrEqual(4);
  });

  it("without --run-id: a usage error (exit 2) whose hint lists recent runs", () => {
    const root = seeded();
    const r = runCli(["replay", "--root", root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error usage_error: --run-id is required/);
    expect(r.stderr).toMatch(/hint: recent runs: .*run:demo/);
  });

  it("--follow prints entries as a live run writes them", async () => {
    const root = seeded();
    const child = spawn(process.execPath, [CLI_BIN, "replay", "--follow", "--run-id", "run:demo", "--root", root], { env: { ...process.env, NO_COLOR: "1" } });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const waitFor = async (re: RegExp) => {
      for (let i = 0; i < 100 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(re);
    };
    await waitFor(/feature\.get\s+ghost/);
    runCli(["run", "status", "--root", root, "--run-id", "run:demo"]);
    await waitFor(/\s4\s+\S+\s+ok\s+-\s+run\.status/);
    child.kill("SIGINT");
    await new Promise((r) => child.on("close", r));
  });

  it("--follow adds no abort listener per poll: no MaxListenersExceededWarning however long it runs", async () => {
    const root = seeded();
    const child = spawn(process.execPath, [CLI_BIN, "replay", "--follow", "--run-id", "run:demo", "--root", root], { env: { ...process.env, NO_COLOR: "1" } });
    let err = "";
    let out = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    // Following from the moment it printed the run (however long a loaded machine took to start it):
    // ten polls are 2 s, and Node warns at the eleventh listener on one signal.
    await expect.poll(() => out, { timeout: 20_000, interval: 50 }).toMatch(/feature\.get\s+ghost/);
    await new Promise((r) => setTimeout(r, 3_500));
    child.kill("SIGINT");
    await new Promise((r) => child.on("close", r));
    expect(err).not.toMatch(/MaxListenersExceededWarning/);
  });
});

const NOW = "2026-03-01T10:00:00.000Z";
const RUN = "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a";

/** A workspace holding an upstream-shaped run (five-field meta) of 2,000 entries. */
function upstreamRun(policyYaml?: string): string {
  const root = tempWorkspace();
  const replay = path.join(root, ".aop", "runtime", "replay");
  fs.mkdirSync(replay, { recursive: true });
  const lines = Array.from({ length: 2000 }, (_, i) =>
    JSON.stringify({ ts: new Date(Date.UTC(2026, 1, 1) + i * 7).toISOString(), sequence: i, run_id: RUN, session_id: "orchestrator-global-1", actor_type: "orchestrator", feature_id: i % 3 ? "hello" : null, tool_name: i % 2 ? "feature.state_get" : "feature.log_append", mutating: i % 2 === 0, operation_id: i % 2 ? null : `op-${i}-abcdef`, idempotency_status: i % 2 ? "none" : "new", request_hash: i % 2 ? null : "e1".repeat(32), result: i % 11 ? "ok" : "error", error_code: i % 11 ? null : "forbidden_tool_for_role", latency_ms: i % 5 }),
  );
  fs.writeFileSync(path.join(replay, `${RUN}.timeline.jsonl`), lines.join("\n") + "\n");
  fs.writeFileSync(path.join(replay, `${RUN}.meta.json`), JSON.stringify({ run_id: RUN, sequence_head: 1999, entry_count: 2000, started_at: "2026-02-01T00:00:00.090Z", last_entry_at: "2026-02-01T00:00:14.300Z" }, null, 2));
  if (policyYaml !== undefined) {
    fs.mkdirSync(path.join(root, "agentic", "orchestrator"), { recursive: true });
    fs.writeFileSync(path.join(root, "agentic", "orchestrator", "policy.yaml"), policyYaml);
  }
  return root;
}

/** The current run's timeline, where the query itself is recorded (the run read is a filter, not the identity). */
const recorded = (root: string) => path.join(root, ".aop", "runtime", "replay", "adhoc-2026-03-01.timeline.jsonl");

describe("aop replay --run-id on an upstream-shaped run", () => {
  it("pages, ranges and filters; the query is recorded in the current run, not the run read", () => {
    const root = upstreamRun();
    const page = runJson<{ entries: { sequence: number }[]; next_from_sequence: number | null }>(["replay", "--run-id", RUN, "--from-sequence", "1900", "--limit", "100"], { cwd: root, env: { AOP_NOW: NOW } });
    expect(page.code).toBe(0);
    expect(page.json.entries.map((e) => e.sequence)).toEqual(Array.from({ length: 100 }, (_, i) => 1900 + i));
    expect(page.json.next_from_sequence).toBeNull();
    const range = runJson<{ entries: { sequence: number }[] }>(["replay", "--run-id", RUN, "--from-sequence", "10", "--to-sequence", "14"], { cwd: root, env: { AOP_NOW: NOW } });
    expect(range.json.entries.map((e) => e.sequence)).toEqual([10, 11, 12, 13, 14]);
    const human = runCli(["replay", "--run-id", RUN, "--result", "error", "--limit", "5"], { cwd: root, env: { AOP_NOW: NOW } });
    expect(human).toMatchObject({ code: 0, stderr: "" });
    expect(human.stdout).toMatch(/5 of 182 matching entries \(seq 0–44\) · 5 errors on this page\nnext page: aop replay --run-id run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a --from-sequence 55 --limit 5\n$/);
    const entries = fs.readFileSync(recorded(root), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { tool_name: string; run_id: string; result: string });
    expect(entries.map((e) => [e.tool_name, e.run_id, e.result])).toEqual(Array.from({ length: 3 }, () => ["replay.timeline_get", "adhoc-2026-03-01", "ok"]));
  });

  it("an invalid filter value is invalid_argument (exit 1), as JSON and for people", () => {
    const root = upstreamRun();
    const json = runCli(["replay", "--run-id", RUN, "--result", "sometimes", "--json"], { cwd: root, env: { AOP_NOW: NOW } });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    const human = runCli(["replay", "--run-id", RUN, "--idempotency", "maybe"], { cwd: root, env: { AOP_NOW: NOW } });
    expect(human).toMatchObject({ code: 1, stdout: "", stderr: expect.stringMatching(/^error invalid_argument: /) });
  });

  it("a run without a timeline is replay_run_not_found (exit 1)", () => {
    const root = upstreamRun();
    const r = runCli(["replay", "--run-id", "run:nope", "--json"], { cwd: root });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: "replay_run_not_found" } });
    expect(runCli(["replay", "--run-id", "run:nope"], { cwd: root }).stderr).toMatch(/^error replay_run_not_found: /);
  });

  it.each([
    ["a policy that narrows RBAC: forbidden_tool_for_role, recorded", "rbac:\n  orchestrator: [feature.get]\n", 1, "forbidden_tool_for_role", true],
    ["a policy that keeps the timeline off: the query works and nothing is recorded", "observability:\n  replay:\n    enabled: false\n", 0, null, false],
    ["a policy that is not valid YAML: config_invalid", "rbac: [\n", 1, "config_invalid", true],
  ])("reads the workspace's policy.yaml: %s", (_name, policy, code, errorCode, isRecorded) => {
    const root = upstreamRun(policy);
    const r = runCli(["replay", "--run-id", RUN, "--limit", "3", "--json"], { cwd: root, env: { AOP_NOW: NOW } });
    expect(r.code).toBe(code);
    if (errorCode !== null) expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: errorCode } });
    expect(fs.existsSync(recorded(root))).toBe(isRecorded);
  });
});
