// Replay timeline figures: append throughput (1 and 4 processes), seek queries, CLI start-up (on our
// own meta and on one holding only the contract's five fields, as the upstream orchestrator writes it),
// memory.
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { aop, compareProcesses, dist, median, node, record, tempDir, REPO_ROOT } from "../lib.mjs";

const SUITE = "replay";

function entry(i, runId) {
  return {
    ts: new Date(Date.UTC(2026, 0, 1) + i).toISOString(), run_id: runId, session_id: "sess-1", actor_type: "orchestrator",
    feature_id: i % 2 ? "feat_a" : "feat_b", tool_name: i % 5 === 0 ? "feature.init" : "feature.get", mutating: i % 5 === 0,
    operation_id: i % 5 === 0 ? `op-${i}-abcdef` : null, idempotency_status: i % 5 === 0 ? "new" : "none",
    request_hash: i % 5 === 0 ? "sha256:" + "ab".repeat(32) : null, result: i % 13 === 0 ? "error" : "ok",
    error_code: i % 13 === 0 ? "feature_not_found" : null, latency_ms: 1.234,
  };
}

async function fill(layout, runId, n) {
  const { TimelineWriter } = await dist("domains/replay/timeline-writer.js");
  const writer = new TimelineWriter(layout, () => 100_000_000);
  for (let i = 0; i < n; i++) await writer.append(entry(i, runId));
  writer.close();
}

/** A run as the upstream orchestrator leaves it: the lines, and a meta with only the five contract fields. */
function writeUpstreamRun(layout, serializeEntry, runId, n) {
  fs.mkdirSync(layout.replayDir, { recursive: true });
  const fd = fs.openSync(layout.timelineFile(runId), "w");
  let batch = "";
  for (let i = 0; i < n; i++) {
    batch += serializeEntry({ ...entry(i, runId), request_hash: i % 5 === 0 ? "ab".repeat(32) : null }, i);
    if (batch.length > 1 << 20) {
      fs.writeSync(fd, batch);
      batch = "";
    }
  }
  fs.writeSync(fd, batch);
  fs.closeSync(fd);
  const meta = { run_id: runId, sequence_head: n - 1, entry_count: n, started_at: "2026-01-01T00:00:00.090Z", last_entry_at: new Date(Date.UTC(2026, 0, 1) + n).toISOString() };
  fs.writeFileSync(layout.timelineMeta(runId), JSON.stringify(meta, null, 2));
}

function runWorker(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "test", "workers", "timeline-append.mjs"), ...args], {
      env: { ...process.env, AOP_DIST_URL: new URL(`file://${REPO_ROOT}/dist`).href },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`worker exited ${code}`))));
  });
}

export async function run() {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { serializeEntry } = await dist("domains/replay/timeline-entry.js");
  const root = tempDir();
  const layout = new WorkspaceLayout(root);

  // 1. single process through the writer vs raw writeSync of the same lines
  const N = 50_000;
  let t = performance.now();
  await fill(layout, "single", N);
  const writerRate = N / ((performance.now() - t) / 1000);
  const rawFile = path.join(root, "raw.jsonl");
  const fd = fs.openSync(rawFile, "a");
  t = performance.now();
  for (let i = 0; i < N; i++) fs.writeSync(fd, serializeEntry(entry(i, "raw"), i));
  const rawRate = N / ((performance.now() - t) / 1000);
  fs.closeSync(fd);
  record({ suite: SUITE, name: "single-process append through the writer", value: writerRate, unit: "entries/s", baselineName: "raw fs.writeSync", baselineValue: rawRate, target: { minValue: 20_000, label: "≥ 20,000/s" }, higherIsBetter: true });

  // 2. four processes on one run (process start-up excluded: each worker reports only after appending)
  const per = 10_000;
  t = performance.now();
  await Promise.all([0, 1, 2, 3].map((p) => runWorker([root, "multi", `p${p}`, String(per)])));
  const wall = (performance.now() - t) / 1000;
  const spawnOnly = await (async () => {
    const s = performance.now();
    await Promise.all([0, 1, 2, 3].map((p) => runWorker([root, `empty-${p}`, `e${p}`, "1"])));
    return (performance.now() - s) / 1000;
  })();
  const together = (4 * per) / Math.max(wall - spawnOnly, 0.001);
  record({ suite: SUITE, name: "4 processes appending to one run, together", value: together, unit: "entries/s", baselineName: "1 process through the writer", baselineValue: writerRate, target: { minValue: 10_000, label: "≥ 10,000/s" }, higherIsBetter: true });

  // 3. seek query on a 50,000-entry run vs reading and parsing the whole file
  const { queryTimeline } = await dist("domains/replay/timeline-query.js");
  for (let i = 0; i < 20; i++) await queryTimeline(layout, { run_id: "single", from_sequence: 49_900, limit: 100 });
  const q = [];
  for (let i = 0; i < 50; i++) {
    const s = performance.now();
    await queryTimeline(layout, { run_id: "single", from_sequence: 49_900, limit: 100 });
    q.push(performance.now() - s);
  }
  const whole = [];
  for (let i = 0; i < 5; i++) {
    const s = performance.now();
    fs.readFileSync(layout.timelineFile("single"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    whole.push(performance.now() - s);
  }
  record({ suite: SUITE, name: "timeline_get from 49,900 limit 100 (50k run, warm)", value: median(q), unit: "ms", baselineName: "read + parse whole file", baselineValue: median(whole), target: { maxValue: 5, label: "≤ 5 ms" } });

  // 4. whole process: our own meta, and a meta with only the contract's five fields (no offset index)
  const page = (runId, from) => aop(["replay", "--run-id", runId, "--from-sequence", String(from), "--limit", "100", "--json", "--root", root]);
  const cli = compareProcesses(page("single", 49_900), node(["-e", "0"]), 21);
  record({ suite: SUITE, name: "aop replay --from-sequence 49900 --limit 100 --json", value: cli.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: cli.baselineMs, target: { max: 1.3, label: "≤ 1.3× node" } });
  writeUpstreamRun(layout, serializeEntry, "run:upstream-50k", 50_000);
  const upstream = compareProcesses(page("run:upstream-50k", 49_900), node(["-e", "0"]), 21);
  record({ suite: SUITE, name: "aop replay … 49900 --limit 100 --json, five-field meta (50k)", value: upstream.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: upstream.baselineMs, target: { max: 1.3, label: "≤ 1.3× node" } });
  writeUpstreamRun(layout, serializeEntry, "run:upstream-500k", 500_000);
  const upstreamHuge = compareProcesses(page("run:upstream-500k", 499_900), node(["-e", "0"]), 21);
  record({ suite: SUITE, name: "aop replay … 499900 --limit 100 --json, five-field meta (500k)", value: upstreamHuge.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: upstreamHuge.baselineMs, target: { max: 1.3, label: "≤ 1.3× node" } });
  fs.rmSync(layout.timelineFile("run:upstream-500k"));

  // 4b. aop state --at N on a 100,000-entry run (every fifth call a feature.init whose answer the ledger no
  // longer holds) vs a bare node program reading and parsing that run's timeline once (docs/replay.md).
  writeUpstreamRun(layout, serializeEntry, "run:state-100k", 100_000);
  const readOnce = `const fs=require("fs");let n=0;for(const l of fs.readFileSync(${JSON.stringify(layout.timelineFile("run:state-100k"))},"utf8").split("\\n"))if(l){JSON.parse(l);n++}`;
  const stateAt = compareProcesses(aop(["state", "--run-id", "run:state-100k", "--at", "99999", "--json", "--root", root]), node(["-e", readOnce]), 7);
  record({ suite: SUITE, name: "aop state --at 99999 --json (100k run)", value: stateAt.subjectMs, unit: "ms", baselineName: "node: read + parse the timeline once", baselineValue: stateAt.baselineMs, target: { max: 1.5, label: "≤ 1.5× one read" } });
  fs.rmSync(layout.timelineFile("run:state-100k"));

  // 5. peak RSS of a filtered query over 500,000 entries, in a fresh process
  await fill(layout, "huge", 500_000);
  const script = `const {queryTimeline}=await import(${JSON.stringify(`file://${REPO_ROOT}/dist/domains/replay/timeline-query.js`)});const {WorkspaceLayout}=await import(${JSON.stringify(`file://${REPO_ROOT}/dist/store/layout.js`)});const p=await queryTimeline(new WorkspaceLayout(${JSON.stringify(root)}),{run_id:"huge",tool_name:"feature.init",result:"error",limit:10000});process.stdout.write(JSON.stringify({rss:process.resourceUsage().maxRSS,total:p.total_matched}));`;
  const out = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let s = "";
    child.stdout.on("data", (d) => (s += d));
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(s)) : reject(new Error("rss probe failed"))));
  });
  const baseRss = await new Promise((resolve) => {
    const child = spawn(process.execPath, ["-e", "process.stdout.write(String(process.resourceUsage().maxRSS))"], { stdio: ["ignore", "pipe", "inherit"] });
    let s = "";
    child.stdout.on("data", (d) => (s += d));
    child.on("close", () => resolve(Number(s)));
  });
  record({ suite: SUITE, name: `peak RSS, filtered query over 500k entries (${out.total} matched)`, value: out.rss / 1024, unit: "MB", baselineName: "node -e (RSS)", baselineValue: baseRss / 1024, target: { maxValue: 150, label: "≤ 150 MB" } });
  fs.rmSync(root, { recursive: true, force: true });
}
