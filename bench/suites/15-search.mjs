// aop search (replay.search) over many timeline entries in many runs: the first page without the index
// (every line read) and with it (built by a first search), beside `grep -F` over the same files.
// AOP_BENCH_SEARCH_ENTRIES sets the total (default 1,000,000 in 100 runs, as issue 32's target names).
import fs from "node:fs";
import { spawnSync } from "node:child_process";
import { dist, median, record, tempDir } from "../lib.mjs";

const SUITE = "search";
const RUNS = 100;

function entry(i, runId) {
  return {
    ts: new Date(Date.UTC(2026, 0, 1) + i * 10).toISOString(), run_id: runId, session_id: "sess-1", actor_type: "orchestrator",
    feature_id: i % 2 ? "feat_a" : "feat_b", tool_name: i % 5 === 0 ? "feature.init" : "feature.get", mutating: i % 5 === 0,
    operation_id: i % 5 === 0 ? `op-${runId}-${i}` : null, idempotency_status: i % 5 === 0 ? "new" : "none",
    request_hash: i % 5 === 0 ? "sha256:" + "ab".repeat(32) : null, result: i % 997 === 0 ? "error" : "ok",
    error_code: i % 997 === 0 ? "feature_not_found" : null, latency_ms: 1.234,
  };
}

function timed(fn, times) {
  const ms = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

async function timedAsync(fn, times) {
  const ms = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

export async function run() {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { serializeEntry } = await dist("domains/replay/timeline-entry.js");
  const { search } = await dist("domains/search/index.js");
  const total = Number(process.env.AOP_BENCH_SEARCH_ENTRIES ?? 1_000_000);
  const per = Math.ceil(total / RUNS);
  const root = tempDir();
  const layout = new WorkspaceLayout(root);
  fs.mkdirSync(layout.replayDir, { recursive: true });
  const files = [];
  for (let r = 0; r < RUNS; r++) {
    const runId = `run-${r}`;
    let text = "";
    for (let i = 0; i < per; i++) text += serializeEntry(entry(r * per + i, runId), i);
    fs.writeFileSync(layout.timelineFile(runId), text);
    files.push(layout.timelineFile(runId));
  }
  // One entry more per run through the writer, which brings each run's meta up to date with its file,
  // as every workspace's writer keeps it (a search lists runs from their metas).
  const { TimelineWriter } = await dist("domains/replay/timeline-writer.js");
  const writer = new TimelineWriter(layout, () => 100_000_000);
  for (let r = 0; r < RUNS; r++) {
    const { sequence: _sequence, ...last } = { ...entry((r + 1) * per, `run-${r}`), sequence: 0 };
    await writer.append(last);
  }
  writer.close();
  const now = Date.UTC(2026, 0, 2);
  const grep = (word) => () => spawnSync("grep", ["-F", "-h", word, ...files], { maxBuffer: 1 << 30 });
  const label = `${(per * RUNS).toLocaleString("en-US")} entries in ${RUNS} runs`;

  for (const [what, query, needle] of [
    ["an error code", "feature_not_found", "feature_not_found"],
    ["an operation id", `op-run-42-${42 * per + 5}`, `op-run-42-${42 * per + 5}`],
  ]) {
    const floor = timed(grep(needle), 3);
    const scan = await timedAsync(() => search(layout, { query, limit: 20, use_index: false }, now), 1);
    record({ suite: SUITE, name: `first page, ${what}, no index (${label})`, value: scan, unit: "ms", baselineName: "grep -F over the same files", baselineValue: floor, target: { max: 2, label: "≤ 2× grep -F" } });
    await search(layout, { query, limit: 20, reindex: true }, now); // builds every run's index
    const indexed = await timedAsync(() => search(layout, { query, limit: 20 }, now), 5);
    record({ suite: SUITE, name: `first page, ${what}, with the index (${label})`, value: indexed, unit: "ms", baselineName: "grep -F over the same files", baselineValue: floor, target: { maxValue: 50, label: "≤ 50 ms" } });
  }
  fs.rmSync(root, { recursive: true, force: true });
}
