// The essential work of `aop hook claude` on a PostToolUse event and nothing else, as the floor its bench
// row is shown beside (docs/performance.md): the event read from stdin and parsed; the run's lock taken
// with an exclusive create and its holder written; the meta read; the entry appended to the timeline and
// its extension line to the ext file; the meta rewritten through a temporary file and a rename; the lock
// removed. No policy, no containment, no bounds, no validation: none of what docs/hardening.md requires.
// The tool input's hash (the entry's request_hash) is left out too: aop hashes an input this small in
// JavaScript in well under a millisecond (src/core/sha256.ts), where node:crypto would cost this program
// ~4 ms to load. So the floor is, if anything, below the true one.
//   node bench/floors/hook-event.cjs < event.json
"use strict";
const fs = require("node:fs");

const event = JSON.parse(fs.readFileSync(0, "utf8"));
const dir = `${event.cwd}/.aop/runtime/replay`;
const run = `${dir}/floor-${event.session_id}`;
fs.mkdirSync(dir, { recursive: true });
const lock = fs.openSync(`${run}.timeline.jsonl.lock`, "wx");
fs.writeSync(lock, JSON.stringify({ pid: process.pid, acquired_at: new Date().toISOString() }));
fs.closeSync(lock);
let meta = { sequence_head: -1, entry_count: 0 };
try {
  meta = JSON.parse(fs.readFileSync(`${run}.meta.json`, "utf8"));
} catch {
  // the run's first event
}
const sequence = meta.sequence_head + 1;
const ts = new Date().toISOString();
const entry = { ts, sequence, run_id: `floor-${event.session_id}`, session_id: event.session_id, actor_type: "agent", feature_id: null, tool_name: event.tool_name, mutating: true, operation_id: event.tool_use_id, idempotency_status: "none", request_hash: `sha256:${"0".repeat(64)}`, result: "ok", error_code: null, latency_ms: event.duration_ms };
fs.appendFileSync(`${run}.timeline.jsonl`, `${JSON.stringify(entry)}\n`);
fs.appendFileSync(`${run}.ext.jsonl`, `${JSON.stringify({ sequence, client: "claude", tool_use_id: event.tool_use_id })}\n`);
const temp = `${dir}/.floor-${event.session_id}.meta.json.tmp-${process.pid}`;
fs.writeFileSync(temp, JSON.stringify({ ...meta, sequence_head: sequence, entry_count: meta.entry_count + 1, last_entry_at: ts }));
fs.renameSync(temp, `${run}.meta.json`);
fs.unlinkSync(`${run}.timeline.jsonl.lock`);
