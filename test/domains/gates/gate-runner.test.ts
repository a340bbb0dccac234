import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runGate, type RunGateOptions } from "../../../src/domains/gates/gate-service.js";
import { processIsRunning } from "../../../src/domains/gates/process-group.js";
import { sha256Of } from "../../../src/core/hash.js";
import { gateWorkspace, gatesYaml, nodeStep, policyWith, setGates, type GateWorkspace } from "../../helpers/gates.js";
import type { GateProgressEvent } from "../../../src/domains/gates/gate-runner.js";

async function run(ws: GateWorkspace, mode: string, options: RunGateOptions = {}) {
  return runGate(ws.layout, ws.clock, policyWith(false), { feature_id: "feat_a", mode }, { killGraceMs: 200, ...options });
}

function log(ws: GateWorkspace, relPath: string | null): string {
  return fs.readFileSync(path.join(ws.root, relPath!), "utf8");
}

describe("gate runner", () => {
  it("passes when every step exits 0, with each step's output in its log and the log's hash recorded", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("hello", "console.log('out'); console.error('err')"), nodeStep("bye", "console.log('bye')")] }) });
    const events: GateProgressEvent[] = [];
    const report = await run(ws, "fast", { onProgress: (e) => events.push(e) });
    expect(report.overall).toBe("pass");
    expect(report.step_results.map((r) => [r.name, r.exit_code, r.skipped, r.attempts])).toEqual([["hello", 0, false, 1], ["bye", 0, false, 1]]);
    const hello = report.step_results[0]!;
    expect(hello.log_path).toMatch(/^\.aop\/features\/feat_a\/logs\/\d+-fast-hello\.log$/);
    expect(log(ws, hello.log_path)).toContain("out\n");
    expect(log(ws, hello.log_path)).toContain("err\n");
    expect(hello.log_sha256).toBe(sha256Of(fs.readFileSync(path.join(ws.root, hello.log_path!))));
    expect(events.map((e) => e.type)).toEqual(["run-start", "step-start", "step-finish", "step-start", "step-finish"]);
  });

  it("fails at the first failing step of a sequence and skips the rest with a reason", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("ok", ""), nodeStep("broken", "process.exit(3)"), nodeStep("after", "")] }) });
    const report = await run(ws, "fast");
    expect(report.overall).toBe("fail");
    const [ok, broken, after] = report.step_results;
    expect(ok).toMatchObject({ exit_code: 0, skipped: false });
    expect(broken).toMatchObject({ exit_code: 3, skipped: false, timed_out: false });
    expect(after).toMatchObject({ skipped: true, skip_reason: "an earlier step failed ('broken')", exit_code: null, attempts: 0, log_path: null, log_sha256: null });
    // A skipped step leaves no log behind.
    expect(fs.readdirSync(ws.layout.featureLogsDir("feat_a")).filter((f) => f.includes("after"))).toEqual([]);
  });

  it("times out: records timed_out and kills the whole process group, grandchildren included", async () => {
    const ws = await gateWorkspace();
    const pidFile = path.join(ws.root, "grandchild.pid");
    // The grandchild ignores SIGTERM, so only the group SIGKILL can end it.
    const grandchild = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)";
    const leader = `const { spawn } = require('child_process');
      const c = spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' });
      require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid));
      console.log('started grandchild');
      setInterval(() => {}, 1000);`;
    setGates(ws, { slow: [nodeStep("hang", leader, { timeout_seconds: 1 }), nodeStep("never", "")] });
    const report = await run(ws, "slow");
    expect(report.overall).toBe("fail");
    expect(report.step_results[0]).toMatchObject({ timed_out: true, exit_code: null, skipped: false });
    expect(report.step_results[1]).toMatchObject({ skipped: true, skip_reason: "an earlier step failed ('hang')" });
    const grandchildPid = Number(fs.readFileSync(pidFile, "utf8"));
    expect(grandchildPid).toBeGreaterThan(0);
    expect(processIsRunning(grandchildPid)).toBe(false);
    const text = log(ws, report.step_results[0]!.log_path);
    expect(text).toContain("started grandchild");
    expect(text).toMatch(/\[aop\] timed out after 1s; process group \d+ killed/);
  });

  it("runs a parallel group as one wave and skips the steps whose dependency failed", async () => {
    const ws = await gateWorkspace();
    const dir = ws.root.replace(/\\/g, "/");
    // Each member waits for the other's marker: they can only both see it when they run at the same time.
    const rendezvous = (mine: string, other: string, exitCode: number) =>
      `const fs = require('fs'); fs.writeFileSync('${dir}/${mine}', '');
       const until = Date.now() + 10000;
       const wait = () => fs.existsSync('${dir}/${other}') ? process.exit(${exitCode}) : Date.now() > until ? process.exit(99) : setTimeout(wait, 20);
       wait();`;
    setGates(ws, {
        full: [
          nodeStep("lint", rendezvous("lint.on", "types.on", 1), { parallel_group: "checks" }),
          nodeStep("types", rendezvous("types.on", "lint.on", 0), { parallel_group: "checks" }),
          nodeStep("unit", "", { depends_on: ["lint"] }),
          nodeStep("docs", "", { depends_on: ["types"] }),
          nodeStep("e2e", "", { depends_on: ["unit"] }),
        ],
    });
    const report = await run(ws, "full");
    const byName = Object.fromEntries(report.step_results.map((r) => [r.name, r]));
    expect(byName.lint).toMatchObject({ exit_code: 1, skipped: false }); // 99 would mean it never met `types`
    expect(byName.types).toMatchObject({ exit_code: 0, skipped: false });
    expect(byName.unit).toMatchObject({ skipped: true, skip_reason: "dependency 'lint' failed" });
    expect(byName.docs).toMatchObject({ exit_code: 0, skipped: false });
    expect(byName.e2e).toMatchObject({ skipped: true, skip_reason: "dependency 'unit' was skipped" });
    expect(report.overall).toBe("fail");
  });

  it("passes only allow-listed variables plus the step's env to a step", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("env", "console.log(JSON.stringify(process.env))", { env: { STEP_VAR: "from-step" } })] }) });
    const report = await run(ws, "fast", { processEnv: { PATH: process.env.PATH, HOME: "/home/x", AOP_TEST_SECRET: "hush" } });
    expect(report.overall).toBe("pass");
    const seen = JSON.parse(log(ws, report.step_results[0]!.log_path).trim()) as Record<string, string>;
    expect(seen.AOP_TEST_SECRET).toBeUndefined();
    expect(seen.STEP_VAR).toBe("from-step");
    expect(seen.HOME).toBe("/home/x");
    expect(seen.PATH).toBe(process.env.PATH);
  });

  it("runs a step in its cwd relative to the workspace root", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("where", "console.log(process.cwd())", { cwd: "packages/app" })] }) });
    fs.mkdirSync(path.join(ws.root, "packages/app"), { recursive: true });
    const report = await run(ws, "fast");
    expect(log(ws, report.step_results[0]!.log_path).trim()).toBe(fs.realpathSync(path.join(ws.root, "packages/app")));
  });

  it("refuses a cwd that escapes the workspace before running anything", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("first", ""), nodeStep("escape", "", { cwd: "../.." })] }) });
    await expect(run(ws, "fast")).rejects.toMatchObject({ code: "gate_step_invalid", message: expect.stringMatching(/step 'escape': cwd '..\/..' is outside the workspace/) });
    expect(fs.existsSync(ws.layout.featureLogsDir("feat_a"))).toBe(false);
    expect(fs.existsSync(ws.layout.evidenceDir("feat_a"))).toBe(false);
  });

  it("records a program that cannot be started as exit 127 with the reason in its log", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [{ name: "ghost", cmd: ["definitely-not-a-program-aop"] }] }) });
    const report = await run(ws, "fast");
    expect(report.overall).toBe("fail");
    expect(report.step_results[0]).toMatchObject({ exit_code: 127, timed_out: false });
    expect(log(ws, report.step_results[0]!.log_path)).toMatch(/\[aop\] cannot start "definitely-not-a-program-aop"/);
  });

  it("passes argv verbatim: shell syntax in an argument is not interpreted", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("argv", "console.log(JSON.stringify(process.argv.slice(1)))")] }) });
    const gates = JSON.parse(fs.readFileSync(ws.layout.gatesFile, "utf8"));
    gates.profiles.default.modes.fast[0].cmd.push("$(touch pwned); echo `id` > x", "*");
    fs.writeFileSync(ws.layout.gatesFile, JSON.stringify(gates));
    const report = await run(ws, "fast");
    expect(JSON.parse(log(ws, report.step_results[0]!.log_path).trim())).toEqual(["$(touch pwned); echo `id` > x", "*"]);
    expect(fs.existsSync(path.join(ws.root, "pwned"))).toBe(false);
  });
});
