// Sync figures (docs/sync.md): `aop sync push` of a large history to an empty bare repository beside
// `git push` of the same commit to another empty one (the floor: git's own packing and transfer of the
// same objects), then an incremental push after 100 entries beside `git push` of one small commit, and
// the bytes that incremental push sent. AOP_BENCH_SYNC_ENTRIES sets the history's size (default 1,000,000).
// Then a pull of 10 origins (copies of one workspace, each its own ref) beside `git fetch` of the same refs,
// and what the pull and `aop replay --list` take past that fetch; AOP_BENCH_SYNC_PULL_ENTRIES sets each
// origin's run (default 100,000).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CLI_BIN, dist, median, record, tempDir } from "../lib.mjs";

const SUITE = "sync";
const N = Number(process.env.AOP_BENCH_SYNC_ENTRIES ?? 1_000_000);
const PULL_N = Number(process.env.AOP_BENCH_SYNC_PULL_ENTRIES ?? 100_000);
const ORIGINS = 10;
const REPEATS = 3;
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "b@example.com" };

const NODE_PUSH = `const r = require("node:child_process").spawnSync("git", ["push", "-q", "origin", "HEAD:refs/heads/main"], { stdio: "inherit" }); process.exit(r.status ?? 1);`;

function git(cwd, args) {
  const r = spawnSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Wall time of one process, in ms; throws when it fails. */
function timed(cmd, args, cwd) {
  const t = performance.now();
  const r = spawnSync(cmd, args, { cwd, env: GIT_ENV, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

function writeTimeline(ws, serializeEntry, n) {
  const timeline = path.join(ws, ".aop/runtime/replay/big.timeline.jsonl");
  fs.mkdirSync(path.dirname(timeline), { recursive: true });
  const fd = fs.openSync(timeline, "w");
  for (let i = 0; i < n; i += 10_000) {
    let chunk = "";
    for (let j = i; j < Math.min(n, i + 10_000); j++) chunk += line(serializeEntry, j);
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);
}

function newWorkspace(dir, name) {
  const ws = path.join(dir, name);
  git(dir, ["init", "-q", "-b", "main", ws]);
  fs.writeFileSync(path.join(ws, "README.md"), "bench\n");
  git(ws, ["add", "README.md"]);
  git(ws, ["commit", "-q", "-m", "first"]);
  timed(process.execPath, [CLI_BIN, "init"], ws);
  return ws;
}

function line(serializeEntry, i) {
  const mutating = i % 2 === 1;
  return serializeEntry({
    ts: new Date(Date.UTC(2026, 0, 1) + i * 40).toISOString(), run_id: "big", session_id: `s-${i % 3}`, actor_type: "agent",
    feature_id: i % 4 ? null : "feat_a", tool_name: ["Read", "Edit", "Bash", "Grep"][i % 4], mutating,
    operation_id: mutating ? `op-big-${i}` : null, idempotency_status: mutating ? "new" : "none",
    request_hash: mutating ? `sha256:${i.toString(16).padStart(64, "0")}` : null, result: "ok", error_code: null, latency_ms: i % 97,
  }, i);
}

export async function run() {
  const { serializeEntry } = await dist("domains/replay/timeline-entry.js");
  const dir = tempDir("aop-bench-sync-");
  const ws = newWorkspace(dir, "ws");
  writeTimeline(ws, serializeEntry, N);

  // Full history: each repeat pushes to a fresh empty remote (the local objects exist after the first).
  const full = [];
  const floor = [];
  for (let rep = 0; rep < REPEATS; rep++) {
    const remote = path.join(dir, `full-${rep}.git`);
    git(dir, ["init", "-q", "--bare", remote]);
    git(ws, ["remote", rep === 0 ? "add" : "set-url", "origin", remote]);
    git(ws, ["update-ref", "-d", `refs/aop/remotes/origin/${JSON.parse(fs.readFileSync(path.join(ws, ".aop/workspace.json"), "utf8")).workspace_id}`]);
    const r = timed(process.execPath, [CLI_BIN, "sync", "push", "--json"], ws);
    full.push(r.ms);
    const commit = JSON.parse(r.stdout).commit;
    const floorRemote = path.join(dir, `floor-${rep}.git`);
    git(dir, ["init", "-q", "--bare", floorRemote]);
    floor.push(timed("git", ["push", "-q", floorRemote, `${commit}:refs/heads/floor`], ws).ms);
  }
  record({ suite: SUITE, name: `push of a ${N.toLocaleString("en-US")}-entry history`, value: median(full), unit: "ms", baselineName: "git push of the same commit", baselineValue: median(floor), target: { max: 1.2, label: "≤ 1.2× git push" } });

  // Incremental: 100 more entries, then one push; the floor pushes one small commit to the same remote.
  const { TimelineWriter } = await dist("domains/replay/timeline-writer.js");
  const { WorkspaceLayout } = await dist("store/layout.js");
  const incremental = [];
  const small = [];
  const sent = [];
  const nodePush = [];
  for (let rep = 0; rep < REPEATS; rep++) {
    const writer = new TimelineWriter(new WorkspaceLayout(ws), () => 100_000_000);
    for (let i = 0; i < 100; i++) {
      await writer.append({ ts: new Date().toISOString(), run_id: "big", session_id: "s", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1 });
    }
    writer.close();
    const r = timed(process.execPath, [CLI_BIN, "sync", "push", "--json"], ws);
    incremental.push(r.ms);
    sent.push(JSON.parse(r.stdout).sent_bytes);
    fs.writeFileSync(path.join(ws, "README.md"), `bench ${rep}\n`);
    git(ws, ["commit", "-q", "-am", `small ${rep}`]);
    small.push(timed("git", ["push", "-q", "origin", "HEAD:refs/heads/main"], ws).ms);
    // The floor of any Node program that pushes: node's own start, then the same git push of one small commit.
    fs.writeFileSync(path.join(ws, "README.md"), `bench node ${rep}\n`);
    git(ws, ["commit", "-q", "-am", `small node ${rep}`]);
    nodePush.push(timed(process.execPath, ["-e", NODE_PUSH], ws).ms);
  }
  record({ suite: SUITE, name: "incremental push after 100 entries", value: median(incremental), unit: "ms", baselineName: "git push of one small commit", baselineValue: median(small), target: { max: 1.5, label: "≤ 1.5× git push" } });
  record({ suite: SUITE, name: "floor: node -e starting that git push of one small commit", value: median(nodePush), unit: "ms", baselineName: "git push of one small commit", baselineValue: median(small) });
  record({ suite: SUITE, name: "incremental push after 100 entries, beside that floor", value: median(incremental), unit: "ms", baselineName: "node -e starting git push", baselineValue: median(nodePush) });
  record({ suite: SUITE, name: "bytes sent by that incremental push", value: median(sent) / 1024, unit: "KiB", target: { maxValue: 64, label: "≤ 64 KiB" } });

  // Pull: 10 origins of PULL_N entries each on one remote; each repeat pulls into a fresh reader, and
  // git fetch of the same refs into another fresh repository is the floor.
  const shared = path.join(dir, "pull.git");
  git(dir, ["init", "-q", "--bare", shared]);
  const first = newWorkspace(dir, "origin-0");
  // The last entry through the writer, as a recorded run has it: the run's meta (entries, index) is current.
  writeTimeline(first, serializeEntry, PULL_N - 1);
  const lastWriter = new TimelineWriter(new WorkspaceLayout(first), () => 100_000_000);
  await lastWriter.append({ ts: new Date().toISOString(), run_id: "big", session_id: "s", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1 });
  lastWriter.close();
  for (let o = 0; o < ORIGINS; o++) {
    const origin = path.join(dir, `origin-${o}`);
    // A copied workspace takes a new id at its first sync (docs/sync.md), so each copy is its own origin.
    if (o > 0) fs.cpSync(first, origin, { recursive: true });
    git(origin, ["remote", o === 0 ? "add" : "set-url", "origin", shared]);
    timed(process.execPath, [CLI_BIN, "sync", "push", "--json"], origin);
  }
  const pulls = [];
  const fetches = [];
  const past = [];
  for (let rep = 0; rep < REPEATS; rep++) {
    const reader = newWorkspace(dir, `reader-${rep}`);
    git(reader, ["remote", "add", "origin", shared]);
    const floorRepo = path.join(dir, `fetch-${rep}.git`);
    git(dir, ["init", "-q", "--bare", floorRepo]);
    const fetch = timed("git", ["--git-dir", floorRepo, "fetch", "-q", shared, "+refs/aop/records/*:refs/aop/remotes/origin/*"], dir).ms;
    const pull = timed(process.execPath, [CLI_BIN, "sync", "pull", "--json"], reader);
    const pulled = JSON.parse(pull.stdout).origins.filter((o) => o.status !== "refused").length;
    if (pulled !== ORIGINS) throw new Error(`pulled ${pulled} origins of ${ORIGINS}`);
    const list = timed(process.execPath, [CLI_BIN, "replay", "--list", "--json"], reader);
    const listed = JSON.parse(list.stdout).runs.filter((r) => r.origin && r.entries === PULL_N).length;
    if (listed !== ORIGINS) throw new Error(`replay --list shows ${listed} pulled runs of ${PULL_N} entries, expected ${ORIGINS}`);
    pulls.push(pull.ms);
    fetches.push(fetch);
    past.push(pull.ms - fetch + list.ms);
  }
  const label = `${ORIGINS} origins × ${PULL_N.toLocaleString("en-US")} entries`;
  record({ suite: SUITE, name: `pull of ${label}`, value: median(pulls), unit: "ms", baselineName: "git fetch of the same refs", baselineValue: median(fetches) });
  record({ suite: SUITE, name: "that pull past the fetch, then replay --list", value: median(past), unit: "ms", target: { maxValue: 2000, label: "≤ 2 s" } });
  fs.rmSync(dir, { recursive: true, force: true });
}
