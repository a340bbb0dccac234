// npm run test:matrix: aop on the Node lines it supports besides the one `npm test` ran on
// (docs/runtimes.md). For each line — Node 22, 24 and 26 by default, from the npm registry's `node`
// package, kept in a cache folder — it installs the packed tarball into a clean prefix with npm running
// on that Node (no npm warning allowed), runs every bin from there (versions, help, init and doctor in a
// workspace, a hook event, an MCP handshake, the library's entry), then runs the CLI, MCP, hook and report
// end-to-end tests on that Node (they spawn process.execPath, so every aop they start runs on it too).
// Last, one workspace's `evidence verify` verdicts are compared across every Node (verify-across-nodes).
//
// The Node running this script (the one `npm test` ran on) gets the tarball and the bins too (marked *).
//
// node scripts/node-matrix.mjs [--nodes 22,24,26] [--cache DIR] [--skip-tests]
//   --nodes   the Node lines (default: AOP_NODE_MATRIX, else 22,24,26)
//   --cache   where the Node binaries are kept (default: AOP_NODE_MATRIX_CACHE, else ~/.cache/aop-node-matrix)
//   --skip-tests  install and run the bins only
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { nodeOf as nodeBinary } from "./node-binary.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The end-to-end tests run on every Node of the matrix (paths under the repository, as vitest filters). */
const E2E_TESTS = ["test/adapters/cli/", "test/adapters/hooks/", "test/adapters/mcp/", "test/domains/report/"];
const VERDICTS_TEST = "test/adapters/cli/verify-across-nodes.test.ts";

const { values: flags } = parseArgs({
  options: { nodes: { type: "string" }, cache: { type: "string" }, "skip-tests": { type: "boolean", default: false } },
});
const lines = (flags.nodes ?? process.env.AOP_NODE_MATRIX ?? "22,24,26").split(",").map((l) => l.trim()).filter(Boolean);
const cache = path.resolve(flags.cache ?? process.env.AOP_NODE_MATRIX_CACHE ?? path.join(os.homedir(), ".cache", "aop-node-matrix"));
const work = fs.mkdtempSync(path.join(os.tmpdir(), "aop-node-matrix-"));
const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
/** npm itself, run by whichever Node installs (npm sets npm_execpath for its scripts). */
const npmCli = process.env.npm_execpath ?? path.join(execFileSync("npm", ["root", "-g"], { encoding: "utf8" }).trim(), "npm", "bin", "npm-cli.js");

const timings = [];
const failures = [];

function log(text) {
  process.stdout.write(`[matrix] ${text}\n`);
}

/** Runs `fn`, records how long it took under `label`; a throw is a failure of that step, reported at the end. */
async function step(line, label, fn) {
  const start = performance.now();
  try {
    await fn();
    return true;
  } catch (err) {
    failures.push(`node ${line}: ${label}: ${err instanceof Error ? err.message : String(err)}`);
    log(`FAILED node ${line}: ${label}\n${err instanceof Error ? err.message : String(err)}`);
    return false;
  } finally {
    timings.push({ line, label, seconds: (performance.now() - start) / 1000 });
  }
}

/** Runs a command to its end; throws with its output when it fails. `check` may refuse its output too. */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, ...options });
  if (r.error) throw r.error;
  if (r.status !== (options.expectCode ?? 0)) throw new Error(`${path.basename(command)} ${args.join(" ")} exited ${r.status}\n${r.stdout}\n${r.stderr}`.trim());
  return r;
}

/** No npm warning, on install or pack (an engines mismatch, a skipped install script, …). */
function refuseNpmWarnings(what, output) {
  const warnings = output.split("\n").filter((l) => /^npm (warn|WARN)/.test(l));
  if (warnings.length > 0) throw new Error(`${what} printed npm warnings:\n${warnings.join("\n")}`);
}

/** The Node binary of a line, installed from the registry's `node` package into the cache unless it is there. */
function nodeOf(line) {
  return nodeBinary(line, cache, log);
}

/** `npm pack` of this checkout (its prepack builds dist/), once for every Node. */
function pack() {
  const r = run("npm", ["pack", "--json", "--pack-destination", work], { cwd: repo });
  refuseNpmWarnings("npm pack", r.stderr);
  return path.join(work, JSON.parse(r.stdout)[0].filename);
}

/** The environment of a Node line: its `node` first on PATH (the bins' `#!/usr/bin/env node`, npm's scripts). */
function envOf(node, extra = {}) {
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`, NO_COLOR: "1", ...extra };
  for (const name of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR", "NODE_OPTIONS", "npm_config_prefix"]) delete env[name];
  return env;
}

function installTarball(node, tarball, prefix) {
  fs.mkdirSync(prefix, { recursive: true });
  const r = run(node, [npmCli, "install", "--prefix", prefix, "--no-audit", "--no-fund", tarball], { env: envOf(node) });
  refuseNpmWarnings(`npm install of the tarball on ${node}`, `${r.stdout}\n${r.stderr}`);
}

function expectThat(condition, message) {
  if (!condition) throw new Error(message);
}

/** `aop mcp`: initialize, then tools/list; resolves with the server's name and the number of tools. */
function mcpHandshake(aop, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(aop, ["mcp"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error("aop mcp: no answer within 30 s"));
    }, 30_000);
    let buffered = "";
    let stderr = "";
    let serverName;
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => {
      buffered += d;
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        if (message.id === 1) {
          serverName = message.result?.serverInfo?.name;
          child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
          child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
        } else if (message.id === 2) {
          clearTimeout(timer);
          child.stdin.end();
          resolve({ serverName, tools: message.result?.tools?.length ?? 0 });
        }
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`aop mcp exited ${code} before answering\n${stderr}`));
    });
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "node-matrix", version: "1" } } };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
  });
}

/** Every bin of the installed package, run on this Node the way a user runs it. */
async function runBins(node, version, prefix) {
  const bin = (name) => path.join(prefix, "node_modules", ".bin", name);
  const env = envOf(node, { XDG_CONFIG_HOME: path.join(prefix, "config") });
  const workspace = fs.mkdtempSync(path.join(work, "ws-"));
  fs.mkdirSync(path.join(workspace, ".git"));
  const aop = (args, options = {}) => run(bin("aop"), args, { cwd: workspace, env, ...options });

  expectThat(aop(["--version"]).stdout === `${pkg.version}\nnode ${version} (${process.platform}-${process.arch})\nworkspace ${workspace}\n`, "aop --version: not the version, this Node and the workspace");
  const versionJson = JSON.parse(aop(["--version", "--json"]).stdout);
  expectThat(versionJson.version === pkg.version && versionJson.node === version && versionJson.workspace === workspace, `aop --version --json: ${JSON.stringify(versionJson)}`);
  expectThat(aop(["--help"]).stdout.startsWith("Usage: aop "), "aop --help: no usage");
  expectThat(run(bin("checkpoint"), ["--help"], { env }).stdout.startsWith("Usage: checkpoint "), "checkpoint --help: no usage");
  expectThat(run(bin("continuity-doctor"), ["--help"], { env }).stdout.startsWith("Usage: continuity-doctor "), "continuity-doctor --help: no usage");
  expectThat(aop(["completion", "bash"]).stdout.includes("complete -F _aop_completion aop"), "aop completion bash: no complete line");

  aop(["init"]);
  const report = JSON.parse(aop(["doctor", "--json"]).stdout);
  expectThat(Array.isArray(report.findings), "aop doctor --json: no findings list");
  aop(["feature", "init", "feat_matrix", "--title", "matrix"]);
  run(bin("checkpoint"), ["update", "matrix", "--status=in_progress", "--step=one", "--next_actions+=run the matrix"], { cwd: workspace, env });
  run(bin("checkpoint"), ["validate"], { cwd: workspace, env });
  run(bin("continuity-doctor"), ["--json"], { cwd: workspace, env, expectCode: 2 }); // no memory/CURRENT_STATE.md: critical

  const event = (fields) => JSON.stringify({ session_id: "matrix", cwd: workspace, transcript_path: path.join(workspace, "t.jsonl"), ...fields });
  const start = aop(["hook", "claude"], { input: event({ hook_event_name: "SessionStart", source: "startup" }) });
  expectThat(JSON.parse(start.stdout).hookSpecificOutput?.hookEventName === "SessionStart", "aop hook claude: SessionStart printed no orientation");
  aop(["hook", "claude"], { input: event({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "" }, tool_use_id: "toolu_matrix" }) });
  const runs = JSON.stringify(JSON.parse(aop(["replay", "--list", "--json"]).stdout));
  expectThat(runs.includes("claude-matrix"), `aop replay --list: the hook's run is missing: ${runs}`);

  const mcp = await mcpHandshake(bin("aop"), workspace, env);
  expectThat(mcp.serverName === "aop-continuity", `aop mcp: serverInfo.name ${mcp.serverName}`);
  expectThat(mcp.tools >= 26, `aop mcp: ${mcp.tools} tools listed`);

  const library = run(node, ["--input-type=module", "-e", "const m = await import('aop-continuity'); process.stdout.write(String(Object.keys(m).length))"], { cwd: prefix, env });
  expectThat(Number(library.stdout) > 0, "import('aop-continuity'): no exports");
}

/** The end-to-end tests, in vitest started by this Node. */
function runTests(node, files, extraEnv = {}) {
  run(node, [path.join(repo, "node_modules", "vitest", "vitest.mjs"), "run", ...files], { cwd: repo, env: envOf(node, extraEnv), stdio: ["ignore", "inherit", "inherit"], encoding: undefined });
}

async function main() {
  log(`Node lines ${lines.join(", ")}; binaries cached in ${cache}; work in ${work}`);
  const nodes = new Map();
  let tarball;
  await step("all", "npm pack (with its build)", () => (tarball = pack()));
  // The Node `npm test` ran on gets the tarball and the bins too (its tests it has run already).
  const here = `${process.versions.node.split(".")[0]}*`;
  const prefixHere = path.join(work, "prefix-here");
  if (tarball && (await step(here, "install the tarball", () => installTarball(process.execPath, tarball, prefixHere)))) {
    await step(here, "every bin", () => runBins(process.execPath, process.version, prefixHere));
  }
  for (const line of lines) {
    let node;
    let version;
    if (!(await step(line, "node binary", () => ((node = nodeOf(line)), (version = run(node, ["--version"]).stdout.trim()))))) continue;
    nodes.set(line, node);
    log(`node ${line}: ${version} at ${node}`);
    const prefix = path.join(work, `prefix-${line}`);
    if (tarball && (await step(line, "install the tarball", () => installTarball(node, tarball, prefix)))) await step(line, "every bin", () => runBins(node, version, prefix));
    if (!flags["skip-tests"]) await step(line, "end-to-end tests", () => runTests(node, E2E_TESTS));
  }
  if (!flags["skip-tests"] && nodes.size > 0) {
    const all = [process.execPath, ...nodes.values()].join(path.delimiter);
    await step("all", "evidence verify verdicts across Nodes", () => runTests(process.execPath, [VERDICTS_TEST], { AOP_MATRIX_NODES: all }));
  }
  fs.rmSync(work, { recursive: true, force: true });

  log("timings (seconds):");
  for (const t of timings) log(`  node ${t.line.padEnd(4)} ${t.label.padEnd(40)} ${t.seconds.toFixed(1).padStart(7)}`);
  log(`  total ${timings.reduce((sum, t) => sum + t.seconds, 0).toFixed(1)}`);
  if (failures.length > 0) {
    log(`${failures.length} failed:\n${failures.map((f) => `  ${f.split("\n")[0]}`).join("\n")}`);
    process.exitCode = 1;
  } else log("every Node passed");
}

await main();
