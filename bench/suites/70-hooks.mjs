// Agent-integration figures: `aop hook claude` for a PostToolUse event, whole process (it runs after
// every tool call of the agent), beside `node -e 0`.
import fs from "node:fs";
import path from "node:path";
import { aop, compareProcesses, node, record, tempDir } from "../lib.mjs";

const SUITE = "hooks";

export async function run() {
  const root = tempDir("aop-bench-hook-");
  fs.mkdirSync(path.join(root, ".git"));
  const event = JSON.stringify({
    session_id: "0b6c7d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e", transcript_path: path.join(root, "t.jsonl"), cwd: root, hook_event_name: "PostToolUse",
    tool_name: "Edit", tool_input: { file_path: path.join(root, "src/a.ts"), old_string: "a".repeat(400), new_string: "b".repeat(400) },
    tool_response: { success: true }, tool_use_id: "toolu_01ABCDEF", duration_ms: 12,
  });
  const r = compareProcesses(aop(["hook", "claude"], { cwd: root, input: event }), node(["-e", "0"]), 21);
  record({ suite: SUITE, name: "aop hook claude, PostToolUse (median of 21)", value: r.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: r.baselineMs, target: { max: 2, label: "≤ 2× node" } });
  const lines = fs.readFileSync(path.join(root, ".aop/runtime/replay/claude-0b6c7d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e.timeline.jsonl"), "utf8").trim().split("\n").length;
  if (lines !== 22) process.stderr.write(`hook bench: expected 22 timeline entries, found ${lines}\n`);
  fs.rmSync(root, { recursive: true, force: true });
}
