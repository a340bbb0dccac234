// Over stdio, with the official SDK 2.x client (docs/mcp.md, "Progress and cancellation"): a gates_run
// given a progressToken reports each step, and aborting the call (the client sends
// notifications/cancelled) kills the sleeping step's process group and records nothing but the
// operation_cancelled timeline entry — no evidence, no chain entry, no ledger record.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { sha256Hex } from "../../../src/core/hash.js";
import { processIsRunning } from "../../../src/domains/gates/process-group.js";
import { gateWorkspace, gatesYaml, hangingStep, INTEGRITY_POLICY_YAML, nodeStep, startedStepPid } from "../../helpers/gates.js";
import { until } from "../../helpers/wait.js";
import { CLI_BIN } from "../../helpers/paths.js";

describe("aop mcp (stdio) with the SDK 2.x client: progress and cancellation of gates_run", () => {
  it("reports the steps, then a cancelled run kills its step and records only operation_cancelled", async () => {
    const ws = await gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML, gates: "" });
    const pidFile = path.join(ws.root, "step.pid");
    fs.writeFileSync(path.join(ws.root, "agentic", "orchestrator", "gates.yaml"), gatesYaml({ fast: [nodeStep("lint", "")], slow: [hangingStep("sleep", pidFile)] }));
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string" && !e[0].startsWith("AOP_")));
    const client = new Client({ name: "stdio-cancel", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, "mcp", "--root", ws.root], cwd: ws.root, env, stderr: "pipe" }));
    try {
      const progress: { progress: number; message?: string }[] = [];
      const fast = await client.callTool({ name: "gates_run", arguments: { feature_id: "feat_a", mode: "fast", operation_id: "op-stdio-progress-1" } }, { onprogress: (p) => void progress.push(p) });
      expect(fast.isError, JSON.stringify(fast.content)).toBeFalsy();
      expect(progress.map((p) => p.message)).toEqual(["gates: 1 steps in 1 waves", "gate step lint started", "gate step lint finished: pass"]);
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);

      const abort = new AbortController();
      const call = client.callTool({ name: "gates_run", arguments: { feature_id: "feat_a", mode: "slow", operation_id: "op-stdio-cancel-1" } }, { signal: abort.signal }).then(
        () => "answered",
        () => "rejected",
      );
      const stepPid = await startedStepPid(pidFile);
      abort.abort("the user pressed Esc");
      expect(await call).toBe("rejected");
      await until("the step to be killed", () => !processIsRunning(stepPid), 5_000);
      const replay = ws.layout.replayDir;
      const entries = () => fs.readdirSync(replay).filter((f) => f.endsWith(".timeline.jsonl")).flatMap((f) => fs.readFileSync(path.join(replay, f), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)).filter((e) => e.operation_id === "op-stdio-cancel-1");
      await until("the cancelled call's entry", () => entries().length > 0, 5_000);
      expect(entries()).toEqual([expect.objectContaining({ tool_name: "gates.run", result: "error", error_code: "operation_cancelled" })]);
      expect(fs.existsSync(ws.layout.ledgerRecord(sha256Hex("op-stdio-cancel-1"))), "no ledger record").toBe(false);
      const chain = fs.readFileSync(path.join(ws.layout.evidenceDir("feat_a"), "chain.jsonl"), "utf8").trim().split("\n");
      expect(chain, "only the fast run is chained").toHaveLength(1);
      expect(fs.readdirSync(ws.layout.evidenceDir("feat_a")).filter((f) => f.includes("slow")), "no evidence file of the cancelled run").toEqual([]);
      // Still serving.
      expect((await client.listTools()).tools.length).toBeGreaterThan(20);
    } finally {
      await client.close();
    }
  });
});
