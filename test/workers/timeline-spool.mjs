// Worker: spools `count` entries of one run (what a hook that cannot wait for the run's lock does).
// Each entry's operation_id is `<tag>-<n>`.
const [root, runId, tag, count] = process.argv.slice(2);
const base = process.env.AOP_DIST_URL;
const { spoolEntry } = await import(base + "/domains/replay/timeline-spool.js");
const { WorkspaceLayout } = await import(base + "/store/layout.js");
const layout = new WorkspaceLayout(root);
for (let n = 0; n < Number(count); n++) {
  spoolEntry(layout, {
    ts: new Date().toISOString(), run_id: runId, session_id: null, actor_type: "agent", feature_id: null, tool_name: "Read",
    mutating: false, operation_id: `${tag}-${n}`, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 0,
  });
}
process.stdout.write("done\n");
