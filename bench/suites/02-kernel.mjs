// Kernel figures: the in-process pipeline, MCP stdio round trips, `aop mcp` start-up (beside a
// trivial one-tool server on the same SDK, bench/servers/, spawned the same way in the same run).
import { spawn } from "node:child_process";
import path from "node:path";
import { CLI_BIN, REPO_ROOT, dist, opsPerSec, percentile, median, record, tempDir } from "../lib.mjs";
import fs from "node:fs";

const SUITE = "kernel";

async function setupWorkspace() {
  const root = tempDir();
  fs.mkdirSync(`${root}/.git`);
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { systemClock } = await dist("core/clock.js");
  const { ToolRuntime } = await dist("runtime/tool-runtime.js");
  const { kernelPorts } = await dist("app/create-runtime.js");
  const layout = new WorkspaceLayout(root);
  const runtime = new ToolRuntime({ ...kernelPorts(), layout, clock: systemClock, env: {} });
  await runtime.callTool("feature.init", { feature_id: "feat_bench", title: "Bench", operation_id: "op-bench-init-0001" });
  return { root, layout, runtime, clock: systemClock };
}

/** Wall time from spawning a stdio MCP server (`node <args>`) until it has answered `initialize`. */
function spawnToInitialized(args) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes('"id":1')) {
        const ms = performance.now() - start;
        child.stdin.end();
        child.on("close", () => resolve(ms));
      }
    });
    child.on("error", reject);
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }) + "\n");
  });
}

function nodeNoop() {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    child.on("close", () => resolve(performance.now() - start));
  });
}

/**
 * A mutating call's cost through the pipeline (intent, noted effect, record, timeline) against the one
 * durable write its handler needs: writing the lease atomically. Interleaved so load hits both alike.
 */
async function mutatingFigures(runtime, root) {
  const { writeJsonAtomic } = await dist("store/atomic-write.js");
  await runtime.callTool("run.start", { run_id: "run:bench", owner: "bench", ttl_seconds: 3600, operation_id: "op-bench-start-0001" });
  const lease = JSON.parse(fs.readFileSync(`${root}/.aop/runtime/default/run-lease.json`, "utf8"));
  const pipeline = [];
  const bare = [];
  for (let i = 0; i < 300; i++) {
    let t = performance.now();
    await runtime.callTool("run.heartbeat", { run_id: "run:bench", operation_id: `op-bench-hb-${i}` });
    pipeline.push(performance.now() - t);
    t = performance.now();
    writeJsonAtomic(`${root}/bench-lease.json`, lease);
    bare.push(performance.now() - t);
  }
  await runtime.callTool("run.stop", { run_id: "run:bench", operation_id: "op-bench-stop-0001" });
  record({ suite: SUITE, name: "in-process run.heartbeat through the full pipeline, p50 (300 calls)", value: median(pipeline), unit: "ms", baselineName: "its lease write alone (atomic, fsynced)", baselineValue: median(bare), target: { max: 4, label: "≤ 4× the write" } });
}

export async function run() {
  const { root, layout, runtime, clock } = await setupWorkspace();
  const { handlers } = await dist("domains/features/tools.js");
  const { policyDefaults } = await dist("config/policy-loader.js");
  const ctx = { layout, clock, policy: policyDefaults(), tool_name: "feature.get", call: { run_id: "r", session_id: null, actor_type: "orchestrator" }, operation_id: null, warn: () => {} };
  const args = { feature_id: "feat_bench" };
  const pipeline = await opsPerSec(() => runtime.callTool("feature.get", args), { batch: 200 });
  const direct = await opsPerSec(() => handlers["feature.get"](args, ctx), { batch: 200 });
  record({ suite: SUITE, name: "in-process feature.get through the full pipeline", value: pipeline, unit: "calls/s", baselineName: "handler called directly", baselineValue: direct, target: { minValue: 5000, label: "≥ 5,000/s" }, higherIsBetter: true });
  record({ suite: SUITE, name: "pipeline overhead (direct / pipeline time)", value: direct / pipeline, unit: "×", target: { maxValue: 3, label: "≤ 3×" } });

  await mutatingFigures(runtime, root);

  const { mcpClient } = await dist("app/clients/mcp.js");
  const client = await mcpClient({ root, stderr: "ignore" });
  for (let i = 0; i < 100; i++) await client.callTool("feature.get", args);
  const samples = [];
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    await client.callTool("feature.get", args);
    samples.push(performance.now() - t);
  }
  await client.close();
  const inproc = [];
  for (let i = 0; i < 1000; i++) {
    const t = performance.now();
    await runtime.callTool("feature.get", args);
    inproc.push(performance.now() - t);
  }
  record({ suite: SUITE, name: "MCP stdio round trip feature.get, p50 (1,000 calls)", value: median(samples), unit: "ms", baselineName: "in-process p50", baselineValue: median(inproc), target: { maxValue: 2, label: "p50 ≤ 2 ms" } });
  record({ suite: SUITE, name: "MCP stdio round trip feature.get, p99", value: percentile(samples, 99), unit: "ms", baselineName: "in-process p99", baselineValue: percentile(inproc, 99), target: { maxValue: 10, label: "p99 ≤ 10 ms" } });

  // Interleaved, so that load on the shared machine hits every process alike.
  const servers = {
    aop: [CLI_BIN, "mcp", "--root", root],
    oneTool: [path.join(REPO_ROOT, "bench", "servers", "one-tool-server.mjs")],
    oneToolSdk1: [path.join(REPO_ROOT, "bench", "servers", "one-tool-server-sdk1.mjs")],
  };
  const times = { aop: [], oneTool: [], oneToolSdk1: [], node: [] };
  for (const args of Object.values(servers)) await spawnToInitialized(args);
  for (let i = 0; i < 15; i++) {
    for (const [name, args] of Object.entries(servers)) times[name].push(await spawnToInitialized(args));
    times.node.push(await nodeNoop());
  }
  const aopMs = median(times.aop);
  record({ suite: SUITE, name: "aop mcp spawn → initialize answered (median of 15)", value: aopMs, unit: "ms", baselineName: "one-tool server, same SDK", baselineValue: median(times.oneTool), target: { max: 0.9, label: "≤ 0.9× one-tool" } });
  record({ suite: SUITE, name: "aop mcp spawn → initialize answered, beside node", value: aopMs, unit: "ms", baselineName: "node -e 0", baselineValue: median(times.node), target: { max: 2.5, label: "≤ 2.5× node" } });
  record({ suite: SUITE, name: "aop mcp spawn → initialize, beside SDK 1.x (reference)", value: aopMs, unit: "ms", baselineName: "one-tool server, @modelcontextprotocol/sdk 1.x", baselineValue: median(times.oneToolSdk1) });
  fs.rmSync(root, { recursive: true, force: true });
}
