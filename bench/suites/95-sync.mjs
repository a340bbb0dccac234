// Sync figures (docs/sync.md): `aop sync push` of a large history to an empty bare repository beside
// `git push` of the same commit to another empty one (the floor: git's own packing and transfer of the
// same objects), then an incremental push after 100 entries beside `git push` of one small commit, and
// the bytes that incremental push sent. AOP_BENCH_SYNC_ENTRIES sets the history's size (default 1,000,000).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CLI_BIN, dist, median, record, tempDir } from "../lib.mjs";

const SUITE = "sync";
const N = Number(process.env.AOP_BENCH_SYNC_ENTRIES ?? 1_000_000);
const REPEATS = 3;
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "b@example.com" };

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
  const ws = path.join(dir, "ws");
  git(dir, ["init", "-q", "-b", "main", ws]);
  fs.writeFileSync(path.join(ws, "README.md"), "bench\n");
  git(ws, ["add", "README.md"]);
  git(ws, ["commit", "-q", "-m", "first"]);
  timed(process.execPath, [CLI_BIN, "init"], ws);
  const timeline = path.join(ws, ".aop/runtime/replay/big.timeline.jsonl");
  fs.mkdirSync(path.dirname(timeline), { recursive: true });
  const fd = fs.openSync(timeline, "w");
  for (let i = 0; i < N; i += 10_000) {
    let chunk = "";
    for (let j = i; j < Math.min(N, i + 10_000); j++) chunk += line(serializeEntry, j);
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);

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
  }
  record({ suite: SUITE, name: "incremental push after 100 entries", value: median(incremental), unit: "ms", baselineName: "git push of one small commit", baselineValue: median(small), target: { max: 1.5, label: "≤ 1.5× git push" } });
  record({ suite: SUITE, name: "bytes sent by that incremental push", value: median(sent) / 1024, unit: "KiB", target: { maxValue: 64, label: "≤ 64 KiB" } });
  fs.rmSync(dir, { recursive: true, force: true });
}
