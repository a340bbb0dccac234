// Agent-integration figures: `aop hook claude`, whole process, run as an agent runs it (the event on
// stdin, the answer read through a pipe), beside `node -e 0` measured in the same run, every event
// ≤ 1.2× (DESIGN §26). PostToolUse runs after every tool call of the agent; SessionStart at every
// session start (it prints the orientation). The 500,000-entry row shows that a tool event costs the
// same on a long session: its workspace's policy.yaml raises max_entries_per_run (default 50,000) so
// that the entry is appended rather than dropped, which also puts reading a policy file on that row's
// path. The floor row is a bare node program doing the event's essential reads and writes
// (bench/floors/hook-event.cjs): what any hook pays, so the rest is what aop adds.
import fs from "node:fs";
import path from "node:path";
import { aop, compareProcesses, dist, medianTimes, node, record, REPO_ROOT, tempDir } from "../lib.mjs";

const HOOK_FLOOR = path.join(REPO_ROOT, "bench", "floors", "hook-event.cjs");

const SUITE = "hooks";
const SESSION = "0b6c7d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";
const RUN = `claude-${SESSION}`;

function hookEvent(root, name, extra) {
  return JSON.stringify({ session_id: SESSION, transcript_path: path.join(root, "t.jsonl"), cwd: root, hook_event_name: name, ...extra });
}

function postToolUse(root) {
  return hookEvent(root, "PostToolUse", {
    tool_name: "Edit", tool_input: { file_path: path.join(root, "src/a.ts"), old_string: "a".repeat(400), new_string: "b".repeat(400) },
    tool_response: { success: true }, tool_use_id: "toolu_01ABCDEF", duration_ms: 12,
  });
}

function timelineLines(root) {
  return fs.readFileSync(path.join(root, `.aop/runtime/replay/${RUN}.timeline.jsonl`), "utf8").trimEnd().split("\n").length;
}

/** A session timeline of `n` entries written by aop's own writer (so its meta is aop's, with the file size). */
async function fillSession(root, n) {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { TimelineWriter } = await dist("domains/replay/timeline-writer.js");
  const writer = new TimelineWriter(new WorkspaceLayout(root), () => 100_000_000);
  for (let i = 0; i < n; i++) {
    await writer.append({ ts: new Date(Date.UTC(2026, 0, 1) + i).toISOString(), run_id: RUN, session_id: SESSION, actor_type: "agent", feature_id: null, tool_name: i % 3 ? "Read" : "Edit", mutating: i % 3 === 0, operation_id: `toolu_${i}`, idempotency_status: "none", request_hash: "ab".repeat(32), result: "ok", error_code: null, latency_ms: 5 });
  }
  writer.close();
}

/** As an agent runs a hook: the event on stdin, the answer read through a pipe (a discarded stdout is not how hooks run). */
const AS_AN_AGENT = { stdio: ["pipe", "pipe", "pipe"] };

export async function run() {
  const root = tempDir("aop-bench-hook-");
  fs.mkdirSync(path.join(root, ".git"));
  const [postMs, floorMs, nodeMs] = medianTimes([aop(["hook", "claude"], { cwd: root, input: postToolUse(root), ...AS_AN_AGENT }), node([HOOK_FLOOR], { cwd: root, input: postToolUse(root), ...AS_AN_AGENT }), node(["-e", "0"])], 21);
  record({ suite: SUITE, name: "aop hook claude, PostToolUse (median of 21)", value: postMs, unit: "ms", baselineName: "node -e 0", baselineValue: nodeMs, target: { max: 1.2, label: "≤ 1.2× node" } });
  record({ suite: SUITE, name: "floor: PostToolUse's reads and writes, bare", value: floorMs, unit: "ms", baselineName: "node -e 0", baselineValue: nodeMs });
  record({ suite: SUITE, name: "aop hook claude, PostToolUse, beside its floor", value: postMs, unit: "ms", baselineName: "floor", baselineValue: floorMs });
  if (timelineLines(root) !== 22) process.stderr.write(`hook bench: expected 22 timeline entries, found ${timelineLines(root)}\n`);

  const start = compareProcesses(aop(["hook", "claude"], { cwd: root, input: hookEvent(root, "SessionStart", { source: "startup" }), ...AS_AN_AGENT }), node(["-e", "0"]), 21);
  record({ suite: SUITE, name: "aop hook claude, SessionStart (median of 21)", value: start.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: start.baselineMs, target: { max: 1.2, label: "≤ 1.2× node" } });
  fs.rmSync(root, { recursive: true, force: true });

  const long = tempDir("aop-bench-hook-500k-");
  fs.mkdirSync(path.join(long, ".git"));
  fs.mkdirSync(path.join(long, "agentic/orchestrator"), { recursive: true });
  fs.writeFileSync(path.join(long, "agentic/orchestrator/policy.yaml"), "version: 1\nobservability:\n  replay:\n    retention:\n      max_entries_per_run: 1000000\n");
  await fillSession(long, 500_000);
  const big = compareProcesses(aop(["hook", "claude"], { cwd: long, input: postToolUse(long), ...AS_AN_AGENT }), node(["-e", "0"]), 21);
  record({ suite: SUITE, name: "aop hook claude, PostToolUse, 500,000-entry session", value: big.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: big.baselineMs, target: { max: 1.2, label: "≤ 1.2× node" } });
  if (timelineLines(long) !== 500_022) process.stderr.write(`hook bench: expected 500,022 timeline entries, found ${timelineLines(long)}\n`);
  fs.rmSync(long, { recursive: true, force: true });
}
