// Black-box: the built `aop gates` and `aop evidence` commands on temp workspaces.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { spawn } from "node:child_process";
import { buildChain, gateWorkspace, gatesYaml, hangingStep, INTEGRITY_POLICY_YAML, nodeStep, setGates, startedStepPid } from "../../helpers/gates.js";
import { waitFor } from "../../helpers/wait.js";
import { CLI_BIN } from "../../helpers/paths.js";
import { processIsRunning } from "../../../src/domains/gates/process-group.js";
import { validateAgainst } from "../../../src/catalog/load-validator.js";
import { createFeature } from "../../../src/domains/features/feature-store.js";

const GATES = gatesYaml({
  fast: [nodeStep("hello", "console.log('hello')")],
  full: [nodeStep("lint", "", { parallel_group: "checks" }), nodeStep("types", "process.exit(4)", { parallel_group: "checks" }), nodeStep("tests", "", { depends_on: ["lint", "types"] })],
});

async function workspace(integrity = true) {
  return gateWorkspace({ gates: GATES, ...(integrity ? { policyYaml: INTEGRITY_POLICY_YAML } : {}) });
}

describe("aop gates run", () => {
  it("runs a passing mode: summary table on stdout, evidence and chain line, exit 0, nothing on stderr off a TTY", async () => {
    const ws = await workspace();
    const r = runCli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"], { cwd: ws.root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/STEP\s+RESULT\s+EXIT\s+TIME\s+LOG \/ REASON/);
    expect(r.stdout).toMatch(/hello\s+pass\s+0/);
    expect(r.stdout).toMatch(/gate fast \(profile default\) for feat_a: PASS {2}1 passed, 0 failed, 0 skipped/);
    expect(r.stdout).toMatch(/evidence {2}\.aop\/features\/feat_a\/evidence\/gate-fast-\d+\.json/);
    expect(r.stdout).toMatch(/chain {5}entry 0 {2}sha256:[0-9a-f]{12}…/);
  });

  it("exits 1 when the gate fails and shows failed and skipped steps with reasons", async () => {
    const ws = await workspace(false);
    const r = runCli(["gates", "run", "--feature-id", "feat_a", "--mode", "full"], { cwd: ws.root });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/types\s+FAIL\s+4/);
    expect(r.stdout).toMatch(/tests\s+skipped\s+dependency 'types' failed/);
    expect(r.stdout).toMatch(/FAIL {2}1 passed, 1 failed, 1 skipped/);
    expect(r.stdout).toMatch(/not recorded \(evidence integrity is off in policy\)/);
  });

  it("a failed gate and a chain that does not verify are recorded as errors with their codes; replay --result error finds them, the ledger replays the error", async () => {
    const ws = await workspace();
    const run = runCli(["gates", "run", "--feature-id", "feat_a", "--mode", "full", "--operation-id", "op-failing-gate-1", "--run-id", "run-truth"], { cwd: ws.root });
    expect(run.code).toBe(1);
    const evidence = /evidence {2}(\S+)/.exec(run.stdout)![1]!;
    fs.writeFileSync(path.join(ws.root, evidence), fs.readFileSync(path.join(ws.root, evidence), "utf8").replace('"overall": "fail"', '"overall": "pass"'));
    expect(runCli(["evidence", "verify", "--feature-id", "feat_a", "--run-id", "run-truth"], { cwd: ws.root }).code).toBe(1);
    expect(runCli(["gates", "run", "--feature-id", "feat_a", "--mode", "full", "--operation-id", "op-failing-gate-1", "--run-id", "run-truth"], { cwd: ws.root }).code).toBe(1);
    const errors = runJson<{ entries: Record<string, unknown>[] }>(["replay", "--run-id", "run-truth", "--result", "error"], { cwd: ws.root });
    expect(errors.json.entries.map((e) => [e.tool_name, e.result, e.error_code, e.idempotency_status])).toEqual([
      ["gates.run", "error", "gate_failed", "new"],
      ["evidence.verify_chain", "error", "evidence_chain_hash_mismatch", "none"],
      ["gates.run", "error", "gate_failed", "replay"],
    ]);
    const ok = runJson<{ entries: unknown[] }>(["replay", "--run-id", "run-truth", "--result", "ok"], { cwd: ws.root });
    expect(ok.json.entries).toEqual([]);
  });

  it("--json prints a failed gate as the gate_failed error envelope carrying the whole run report, exit 1", async () => {
    const ws = await workspace();
    const r = runJson<{ ok: false; error: { code: string; details: Record<string, unknown> } }>(["gates", "run", "--feature-id", "feat_a", "--mode", "full"], { cwd: ws.root });
    expect(r.code).toBe(1);
    expect(await validateAgainst("envelope/error", r.json)).toEqual([]);
    expect(r.json).toMatchObject({ ok: false, error: { code: "gate_failed", details: { overall: "fail", mode: "full", chain: { sequence: 0 }, failed_steps: ["types"] } } });
    const { failed_steps: _failed, hint: _hint, ...report } = r.json.error.details;
    expect(await validateAgainst("output/gates.run", report)).toEqual([]);
  });

  it("a passing gate prints its report with --json and exits 0", async () => {
    const ws = await workspace();
    const r = runJson<Record<string, unknown>>(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"], { cwd: ws.root });
    expect(r.code).toBe(0);
    expect(await validateAgainst("output/gates.run", r.json)).toEqual([]);
    expect(r.json).toMatchObject({ overall: "pass", mode: "fast" });
  });

  it.each([
    [["--feature-id", "ghost", "--mode", "fast"], "feature_not_found"],
    [["--feature-id", "feat_a", "--mode", "slow"], "gate_mode_not_found"],
    [["--feature-id", "feat_a", "--mode", "fast", "--profile", "ci"], "gate_profile_not_found"],
    [["--feature-id", "../../etc", "--mode", "fast"], "invalid_argument"],
  ])("refuses %j with %s (exit 1, no stack trace)", async (args, code) => {
    const ws = await workspace();
    const r = runCli(["gates", "run", ...args], { cwd: ws.root });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error ${code}: `));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const j = runJson(["gates", "run", ...args], { cwd: ws.root });
    expect(j.json).toMatchObject({ ok: false, error: { code } });
  });

  it("an interrupted run (SIGINT) kills its running steps, writes no evidence and exits 130", async () => {
    const ws = await workspace();
    const pidFile = path.join(ws.root, "step.pid");
    setGates(ws, { slow: [hangingStep("hang", pidFile)] });
    const child = spawn(process.execPath, [CLI_BIN, "gates", "run", "--feature-id", "feat_a", "--mode", "slow"], { cwd: ws.root, env: { ...process.env, NO_COLOR: "1" } });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const stepPid = await startedStepPid(pidFile);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/interrupted by SIGINT: 1 running step killed; no evidence was written/);
    expect(await waitFor(() => !processIsRunning(stepPid), 5_000), "the step is killed").toBe(true);
    expect(fs.existsSync(ws.layout.evidenceDir("feat_a"))).toBe(false);
  });

  it("without gates.yaml: config_invalid with a hint", async () => {
    const ws = await gateWorkspace();
    const r = runCli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"], { cwd: ws.root });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error config_invalid: agentic\/orchestrator\/gates\.yaml: does not exist/);
    expect(r.stderr).toMatch(/hint: run `aop init`/);
  });

  it("a missing required flag is a usage error (exit 2)", async () => {
    const ws = await workspace();
    const r = runCli(["gates", "run", "--feature-id", "feat_a"], { cwd: ws.root });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error usage_error: required option '--mode <mode>'/);
  });
});

describe("aop evidence", () => {
  it("latest: human and JSON views of the newest evidence", async () => {
    const ws = await workspace();
    runCli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"], { cwd: ws.root });
    const r = runCli(["evidence", "latest", "--feature-id", "feat_a"], { cwd: ws.root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^feat_a {2}fast \(profile default\) {2}PASS\nfinished {2}\S+ \(.+\)\nevidence {2}\.aop\/features\/feat_a\/evidence\/gate-fast-\d+\.json/);
    expect(r.stdout).toMatch(/hello\s+pass/);
    const j = runJson<Record<string, unknown>>(["evidence", "latest", "--feature-id", "feat_a", "--mode", "fast"], { cwd: ws.root });
    expect(await validateAgainst("output/evidence.latest", j.json)).toEqual([]);
    const none = runCli(["evidence", "latest", "--feature-id", "feat_a", "--mode", "full"], { cwd: ws.root });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error evidence_not_found: /);
  });

  it("verify: one line per feature; a tampered chain prints sequence, code, path and both hashes and exits 1", async () => {
    const ws = await workspace();
    await createFeature(ws.layout, ws.clock, { feature_id: "feat_b" });
    for (const f of ["feat_a", "feat_a", "feat_b"]) runCli(["gates", "run", "--feature-id", f, "--mode", "fast"], { cwd: ws.root });
    const ok = runCli(["evidence", "verify", "--feature-id", "feat_a"], { cwd: ws.root });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^✓ feat_a {2}valid {2}2 entries {2}head sha256:[0-9a-f]{12}…\n$/);

    const second = JSON.parse(fs.readFileSync(ws.layout.chainFile("feat_a"), "utf8").split("\n")[1]!) as { artifact_rel_path: string };
    fs.appendFileSync(path.join(ws.root, second.artifact_rel_path), "\n");
    const bad = runCli(["evidence", "verify", "--all"], { cwd: ws.root });
    expect(bad.code).toBe(1);
    const lines = bad.stdout.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^✗ feat_a {2}INVALID {2}2 entries {2}sequence 1 {2}evidence_chain_hash_mismatch {2}${second.artifact_rel_path.replace(/\./g, "\\.")} {2}expected sha256:[0-9a-f]{12}… actual sha256:[0-9a-f]{12}…$`));
    expect(lines[1]).toMatch(/modified after it was chained/);
    expect(lines[2]).toMatch(/^ {4}fix: restore .* from git .* or a trusted copy; to start over instead, `aop evidence reset-chain --feature-id feat_a/);
    expect(lines[3]).toMatch(/^✓ feat_b {2}valid {2}1 entry /);

    const j = runJson<{ valid: boolean; features: Record<string, unknown>[] }>(["evidence", "verify", "--all"], { cwd: ws.root });
    expect(j.code).toBe(1);
    expect(j.json.valid).toBe(false);
    for (const report of j.json.features) expect(await validateAgainst("output/evidence.verify_chain", report)).toEqual([]);
    const single = runJson<Record<string, unknown>>(["evidence", "verify", "--feature-id", "feat_b"], { cwd: ws.root });
    expect(single).toMatchObject({ code: 0, json: { feature_id: "feat_b", valid: true } });
    const invalid = runJson<Record<string, unknown>>(["evidence", "verify", "--feature-id", "feat_a"], { cwd: ws.root });
    expect(invalid).toMatchObject({ code: 1, json: { ok: false, error: { code: "evidence_chain_hash_mismatch", details: { feature_id: "feat_a", valid: false, first_failure_sequence: 1 } } } });
  });

  it("verify: a feature without a chain is evidence_chain_missing; --all with no chains says so", async () => {
    const ws = await workspace(false);
    const r = runCli(["evidence", "verify", "--feature-id", "feat_a"], { cwd: ws.root });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/INVALID {2}0 entries {2}evidence_chain_missing/);
    const all = runCli(["evidence", "verify", "--all"], { cwd: ws.root });
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/no feature has an evidence chain/);
  });

  it("verify needs exactly one of --feature-id and --all (exit 2)", async () => {
    const ws = await workspace();
    for (const args of [[], ["--feature-id", "feat_a", "--all"]]) {
      const r = runCli(["evidence", "verify", ...args], { cwd: ws.root });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/give either --feature-id <id> or --all/);
    }
  });

  it("every gates and evidence command has --help with an example", () => {
    for (const args of [["gates"], ["gates", "run"], ["evidence"], ["evidence", "latest"], ["evidence", "verify"]]) {
      const r = runCli([...args, "--help"]);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout, args.join(" ")).toMatch(/Example/);
    }
  });
});

describe("aop evidence verify: exit codes", () => {
  it("valid (0), --all --json (0), a tampered artifact (1, human and JSON), no feature named (usage, 2), an unsafe id (1)", async () => {
    const ws = await gateWorkspace();
    const runs = await buildChain(ws.layout, ws.clock, "feat_a", 4);
    await buildChain(ws.layout, ws.clock, "feat_b", 3);
    const at = (...args: string[]) => runCli(["--root", ws.root, ...args]);
    expect(at("evidence", "verify", "--feature-id", "feat_a")).toMatchObject({ code: 0, stdout: expect.stringMatching(/^✓ feat_a/) });
    const all = at("evidence", "verify", "--all", "--json");
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({ valid: true, features: [{ feature_id: "feat_a" }, { feature_id: "feat_b" }] });
    fs.writeFileSync(ws.layout.resolveInside(runs[2]!.rel_path)!, "changed");
    const tampered = at("evidence", "verify", "--feature-id", "feat_a", "--json");
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.stdout)).toMatchObject({ ok: false });
    expect(at("evidence", "verify", "--all")).toMatchObject({ code: 1, stdout: expect.stringMatching(/✗ feat_a[\s\S]*✓ feat_b/) });
    expect(at("evidence", "verify")).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error usage_error: give either --feature-id <id> or --all/) });
    const unsafe = at("evidence", "verify", "--feature-id", "../x", "--json");
    expect(unsafe.code).toBe(1);
    expect(JSON.parse(unsafe.stdout)).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
  });
});
