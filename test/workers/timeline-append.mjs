// Worker: appends `count` entries (or forever with count 0) to one run through the TimelineWriter.
// Each entry's operation_id is `<tag>-<n>` so the test can check per-process order; every entry carries
// extras naming it too (`ext.op`), which the writer puts in the run's sidecar.
const [root, runId, tag, count] = process.argv.slice(2);
const base = process.env.AOP_DIST_URL;
const { TimelineWriter } = await import(base + "/domains/replay/timeline-writer.js");
const { WorkspaceLayout } = await import(base + "/store/layout.js");
const writer = new TimelineWriter(new WorkspaceLayout(root), () => 10_000_000);
const entry = (n) => ({
  ts: new Date().toISOString(), run_id: runId, session_id: runId, actor_type: "system", feature_id: null, tool_name: "bench.append",
  mutating: true, operation_id: `${tag}-${n}`, idempotency_status: "new", request_hash: null, result: "ok", error_code: null, latency_ms: 0.1,
  transport: "mcp", ext: { op: `${tag}-${n}` },
});
process.stdout.write("started\n");
const total = Number(count);
for (let n = 0; total === 0 || n < total; n++) {
  await writer.append(entry(n));
}
writer.close();
process.stdout.write("done\n");
