// OTLP export figures: a 50,000-entry run sent to a loopback OTLP receiver (another process) over
// http/protobuf and http/json, beside serialising the same spans without sending.
import { fork } from "node:child_process";
import path from "node:path";
import { dist, median, record, tempDir, REPO_ROOT } from "../lib.mjs";

const SUITE = "export";
const N = 50_000;
/** Figures are medians of this many exports (the machine is shared; single runs are noisy). */
const REPEATS = 3;

function entry(i, runId) {
  const mutating = i % 5 === 0;
  return {
    ts: new Date(Date.UTC(2026, 0, 1) + i * 20).toISOString(), run_id: runId, session_id: "sess-1", actor_type: "agent",
    feature_id: i % 2 ? "feat_a" : null, tool_name: ["Read", "Edit", "Bash", "mcp__aop__feature_get", "Grep"][i % 5], mutating,
    operation_id: `toolu_${String(i).padStart(8, "0")}`, idempotency_status: "none",
    request_hash: "sha256:" + "ab".repeat(32), result: i % 13 === 0 ? "error" : "ok",
    error_code: i % 13 === 0 ? "tool_error" : null, latency_ms: 12.5,
    ...(i % 7 === 0 ? { agent_id: `agent-${i % 3}`, agent_type: "Explore" } : {}),
  };
}

function startReceiver() {
  const child = fork(path.join(REPO_ROOT, "bench", "otlp-receiver.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let spans = 0;
  const waiters = [];
  return new Promise((resolve) => {
    child.on("message", (m) => {
      if (m.url) {
        resolve({
          url: m.url,
          received: () => spans,
          /** Resolves once the receiver has counted `n` spans in all. */
          waitFor: (n) => new Promise((r) => (spans >= n ? r() : waiters.push([n, r]))),
          close: () => child.disconnect(),
        });
      }
      if (typeof m.spans === "number") {
        spans = m.spans;
        for (const [n, resolve] of waiters.splice(0)) {
          if (spans >= n) resolve();
          else waiters.push([n, resolve]);
        }
      }
    });
  });
}

export async function run() {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { TimelineWriter } = await dist("domains/replay/timeline-writer.js");
  const exp = await dist("domains/export/index.js");
  const { fixedClock } = await dist("core/clock.js");
  const layout = new WorkspaceLayout(tempDir());
  const runId = "claude-bench";
  const writer = new TimelineWriter(layout, () => 100_000_000);
  for (let i = 0; i < N; i++) await writer.append(entry(i, runId));
  writer.close();
  const receiver = await startReceiver();
  const clock = fixedClock("2026-01-02T00:00:00.000Z");
  const version = "bench";

  const { readEntriesFrom } = await dist("domains/replay/index.js");
  const fs = await import("node:fs");
  for (const protocol of ["http/protobuf", "http/json"]) {
    // Baseline: the same spans (built once), serialised in the same 1,000-entry batches, sent nowhere.
    const builder = new exp.RunSpanBuilder("0".repeat(32), runId, exp.emptyEnvelopes(), () => null);
    const batches = [];
    let batch = [];
    for await (const e of readEntriesFrom(layout, runId, 0)) {
      if (batch.length >= exp.DEFAULT_BATCH_ENTRIES) {
        batches.push(batch);
        batch = [];
      }
      batch.push(...builder.add(e));
    }
    batches.push([...batch, ...builder.pendingEnvelopes()]);
    const spanCount = batches.reduce((n, b) => n + b.length, 0);
    const encoder = new exp.OtlpEncoder(version);
    const encodeRates = [];
    const exportRates = [];
    for (let rep = 0; rep < REPEATS; rep++) {
      let t = performance.now();
      for (const b of batches) encoder.encode(b, protocol);
      encodeRates.push(spanCount / ((performance.now() - t) / 1000));

      // Subject: the whole export (read the timeline, build, serialise, POST, wait for 200, move the cursor),
      // from an empty cursor each time.
      fs.rmSync(layout.exportDir, { recursive: true, force: true });
      const target = exp.resolveHttpTarget({ endpoint: receiver.url, protocol }, {}, null);
      const delivery = exp.httpDelivery(target, { userAgent: "aop-bench" });
      const before = receiver.received();
      t = performance.now();
      const result = await exp.exportRun({ layout, clock, delivery, serviceVersion: version }, runId);
      exportRates.push(result.spans / ((performance.now() - t) / 1000));
      await receiver.waitFor(before + result.spans);
      if (result.spans !== spanCount) throw new Error(`exported ${result.spans} spans, built ${spanCount}`);
    }
    record({ suite: SUITE, name: `50,000-entry run to a loopback receiver (${protocol})`, value: median(exportRates), unit: "spans/s", baselineName: "serialise only", baselineValue: median(encodeRates), target: { minValue: 20_000, label: "≥ 20,000/s" }, higherIsBetter: true });
  }
  receiver.close();
}
