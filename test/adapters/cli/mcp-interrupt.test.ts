// `aop mcp` interrupted during gates_run (the client goes away, SIGTERM, SIGINT): the step's process group
// is killed, and nothing is recorded — no evidence, no chain entry, no state, no ledger record — so the
// same operation id runs the gate again (docs/evidence.md, "Interrupted runs").
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gateWorkspace, gatesYaml, hangingStep, INTEGRITY_POLICY_YAML, nodeStep, setGates, startedStepPid, type GateWorkspace } from "../../helpers/gates.js";
import { waitFor } from "../../helpers/wait.js";
import { CLI_BIN } from "../../helpers/paths.js";
import { runJson } from "../../helpers/cli.js";
import { processIsRunning } from "../../../src/domains/gates/process-group.js";
import { sha256Hex } from "../../../src/core/hash.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { checkpointPath, checkpointWorkspace, minimalCheckpoint } from "../../domains/checkpoints/fixture.js";

function serve(root: string): { child: ChildProcessWithoutNullStreams; send(message: object): void; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, [CLI_BIN, "mcp", "--root", root], { stdio: ["pipe", "pipe", "pipe"] });
  const send = (message: object) => child.stdin.write(JSON.stringify(message) + "\n");
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  return { child, send, exited };
}

async function hangingGate(): Promise<{ ws: GateWorkspace; pidFile: string }> {
  const ws = await gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML, gates: gatesYaml({ fast: [nodeStep("ok", "")] }) });
  const pidFile = path.join(ws.root, "step.pid");
  setGates(ws, { slow: [hangingStep("hang", pidFile)], fast: [nodeStep("ok", "")] });
  return { ws, pidFile };
}

async function expectGone(pid: number): Promise<void> {
  expect(await waitFor(() => !processIsRunning(pid), 5_000), `step ${pid} still running`).toBe(true);
}

function expectNothingRecorded(ws: GateWorkspace, operationId: string): void {
  expect(fs.existsSync(ws.layout.evidenceDir("feat_a")), "no evidence folder").toBe(false);
  expect(fs.existsSync(ws.layout.ledgerRecord(sha256Hex(operationId))), "no ledger record").toBe(false);
  expect(fs.readFileSync(ws.layout.featureState("feat_a"), "utf8")).not.toMatch(/gates:\s*\n\s+slow:/);
  expect(fs.readdirSync(ws.layout.featureLogsDir("feat_a")), "its step logs are removed").toEqual([]);
}

describe("aop mcp interrupted during gates_run", () => {
  for (const how of ["stdin closed", "SIGTERM", "SIGINT"] as const) {
    it(`${how}: kills the step, records nothing, and the same operation id runs the gate again`, async () => {
      const { ws, pidFile } = await hangingGate();
      const server = serve(ws.root);
      server.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "gates_run", arguments: { feature_id: "feat_a", mode: "slow", operation_id: "op-interrupted-gate-1" } } });
      const stepPid = await startedStepPid(pidFile);
      if (how === "stdin closed") server.child.stdin.end();
      else server.child.kill(how);
      const exit = await server.exited;
      expect(exit.code).toBe(how === "stdin closed" ? 0 : how === "SIGTERM" ? 143 : 130);
      await expectGone(stepPid);
      expectNothingRecorded(ws, "op-interrupted-gate-1");

      // The retry (same id, a gate that now finishes) runs the steps: nothing was replayed.
      setGates(ws, { slow: [nodeStep("hang", "")] });
      const retry = runJson<{ ok: boolean }>(["call", "gates.run", "--args", '{"feature_id":"feat_a","mode":"slow"}', "--operation-id", "op-interrupted-gate-1", "--root", ws.root]);
      expect(retry.code, JSON.stringify(retry.json)).toBe(0);
      expect(retry.json).toMatchObject({ ok: true, data: { overall: "pass", chain: { sequence: 0 } } });
    });
  }
});

describe("aop mcp: a client cancels a running gates_run (notifications/cancelled)", () => {
  it("kills the step, records only operation_cancelled in the timeline, and keeps serving", async () => {
    const { ws, pidFile } = await hangingGate();
    const server = serve(ws.root);
    let stdout = "";
    server.child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "gates_run", arguments: { feature_id: "feat_a", mode: "slow", operation_id: "op-cancelled-gate-1" } } });
    const stepPid = await startedStepPid(pidFile);
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "the user pressed Esc" } });
    await expectGone(stepPid);
    // Still serving: the next request is answered.
    server.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    await waitFor(() => stdout.includes('"id":3'), 10_000);
    expect(stdout).toContain('"id":3');
    server.child.stdin.end();
    await server.exited;
    expectNothingRecorded(ws, "op-cancelled-gate-1");
    const replay = path.join(ws.root, ".aop", "runtime", "replay");
    const timeline = fs.readdirSync(replay).find((f) => f.endsWith(".timeline.jsonl"))!;
    const entries = fs.readFileSync(path.join(replay, timeline), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.filter((e) => e.tool_name === "gates.run")).toEqual([expect.objectContaining({ result: "error", error_code: "operation_cancelled", operation_id: "op-cancelled-gate-1" })]);
  });
});

describe("aop gates run interrupted", () => {
  for (const transport of ["inprocess", "mcp"] as const) {
    it(`--transport ${transport}, SIGTERM: exit 143, the step is killed and nothing is recorded`, async () => {
      const { ws, pidFile } = await hangingGate();
      const child = spawn(process.execPath, [CLI_BIN, "gates", "run", "--feature-id", "feat_a", "--mode", "slow", "--operation-id", "op-cli-gate-0001", "--transport", transport, "--root", ws.root], { env: { ...process.env, NO_COLOR: "1" } });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      const stepPid = await startedStepPid(pidFile);
      child.kill("SIGTERM");
      expect(await exited).toBe(143);
      expect(stderr).toMatch(/^interrupted by SIGTERM: .*no evidence was written/m);
      await expectGone(stepPid);
      // the server of --transport mcp needs a moment after its client left
      await waitFor(() => fs.readdirSync(ws.layout.featureLogsDir("feat_a")).length === 0, 5_000);
      expectNothingRecorded(ws, "op-cli-gate-0001");
    });
  }
});

describe("aop mcp interrupted during checkpoint_done with verify", () => {
  it("stdin closed: the done_when command is killed and nothing is marked done or recorded", async () => {
    const pidFile = "done-when.pid";
    const root = checkpointWorkspace({ builder: minimalCheckpoint("builder", { next_actions: [{ text: "run the suite", done_when: `echo $$ > ${pidFile}; exec sleep 30` }, "then ship"] }) });
    const before = fs.readFileSync(checkpointPath(root, "builder"));
    const server = serve(root);
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "checkpoint_done", arguments: { skill: "builder", verify: true, operation_id: "op-interrupted-done-1" } } });
    const commandPid = await startedStepPid(path.join(root, pidFile));
    server.child.stdin.end();
    expect((await server.exited).code).toBe(0);
    await expectGone(commandPid);
    expect(fs.readFileSync(checkpointPath(root, "builder")).equals(before)).toBe(true);
    expect(fs.existsSync(new WorkspaceLayout(root).ledgerRecord(sha256Hex("op-interrupted-done-1")))).toBe(false);
  });
});
