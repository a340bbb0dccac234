// Start-up figures (DESIGN §26): the commands people and agents run all day, each a whole process on a
// small workspace, beside `node -e 0` measured interleaved in the same run. Interactive commands ≤ 1.5×.
// `aop checkpoint next` also beside the Checkpoint Protocol's reference CLI on the same files (≤ 1.0×).
// (The hook's figures, ≤ 1.2×, are in 70-hooks.mjs; `aop --version` and `--help` in 01-foundation.mjs.)
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CLI_BIN, aop, checkpointReference, compareProcesses, median, node, record, tempDir } from "../lib.mjs";

const SUITE = "startup";
const TARGET = { max: 1.5, label: "≤ 1.5× node" };

/** A small workspace made through the CLI itself: a feature with two gate runs on a chain, a checkpoint, a run's timeline. */
function smallWorkspace() {
  const root = fs.realpathSync(tempDir());
  fs.mkdirSync(path.join(root, ".git"));
  const env = { ...process.env, AOP_RUN_ID: "run:bench" };
  const run = (...args) => execFileSync(process.execPath, [CLI_BIN, ...args, "--root", root], { env, stdio: "ignore", cwd: root });
  run("init");
  run("feature", "init", "feat_login", "--title", "Login page");
  run("gates", "run", "--feature-id", "feat_login", "--mode", "fast");
  run("gates", "run", "--feature-id", "feat_login", "--mode", "fast");
  run("checkpoint", "init");
  run("checkpoint", "update", "architect", "--status=in_progress", "--step=api-contract", "--progress_summary=Contract drafted.", '--next_actions:json=[{"text":"Write the error model","done_when":"true"}]');
  for (let i = 0; i < 20; i++) run("feature", "show", "feat_login");
  return root;
}

/** Wall time from spawning `aop mcp` until it has answered `initialize`, and of `node -e 0`, interleaved. */
async function mcpStart(root, runs) {
  const once = (args, handshake) =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      const child = spawn(process.execPath, args, { stdio: [handshake ? "pipe" : "ignore", handshake ? "pipe" : "ignore", "ignore"] });
      child.on("error", reject);
      if (!handshake) {
        child.on("close", () => resolve(performance.now() - start));
        return;
      }
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        if (!out.includes('"id":1')) return;
        const ms = performance.now() - start;
        child.stdin.end();
        child.on("close", () => resolve(ms));
      });
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }) + "\n");
    });
  const aopTimes = [];
  const nodeTimes = [];
  await once([CLI_BIN, "mcp", "--root", root], true);
  for (let i = 0; i < runs; i++) {
    aopTimes.push(await once([CLI_BIN, "mcp", "--root", root], true));
    nodeTimes.push(await once(["-e", "0"], false));
  }
  return { subjectMs: median(aopTimes), baselineMs: median(nodeTimes) };
}

export async function run() {
  const root = smallWorkspace();
  const options = { cwd: root, env: { ...process.env, AOP_RUN_ID: "run:bench-read" } };
  const commands = [
    ["aop --help", ["--help"]],
    ["aop feature list", ["feature", "list"]],
    ["aop replay --run-id run:bench --limit 20", ["replay", "--run-id", "run:bench", "--limit", "20"]],
    ["aop checkpoint next", ["checkpoint", "next"]],
    ["aop checkpoint validate", ["checkpoint", "validate"]],
    ["aop evidence verify --feature-id feat_login", ["evidence", "verify", "--feature-id", "feat_login"]],
    ["aop doctor, small workspace", ["doctor"]],
    ["aop config check", ["config", "check"]],
    ["aop run status", ["run", "status"]],
  ];
  for (const [name, args] of commands) {
    const m = compareProcesses(aop(args, { ...options, allowFailure: true }), node(["-e", "0"]), 15);
    record({ suite: SUITE, name: `${name} (median of 15)`, value: m.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: m.baselineMs, target: TARGET });
  }
  const reference = checkpointReference(root);
  if (reference) {
    const m = compareProcesses(aop(["checkpoint", "next"], options), node([reference, "next"], options), 15);
    record({ suite: SUITE, name: "aop checkpoint next, beside the reference CLI (median of 15)", value: m.subjectMs, unit: "ms", baselineName: "reference checkpoint.mjs next", baselineValue: m.baselineMs, target: { max: 1, label: "≤ 1.0× reference" } });
  }
  const mcp = await mcpStart(root, 15);
  record({ suite: SUITE, name: "aop mcp spawn → initialize answered (median of 15)", value: mcp.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: mcp.baselineMs, target: TARGET });
  fs.rmSync(root, { recursive: true, force: true });
}
