// Hook payloads exactly as Claude Code 2.1.332 sent them (captured from real sessions into
// test/adapters/hooks/payloads/), moved into a test workspace: cwd, transcript_path and
// agent_transcript_path point into it; `overrides` replace or add fields.
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./paths.js";

const DIR = path.join(REPO_ROOT, "test", "adapters", "hooks", "payloads");

export function claudePayload(name: string, root: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const payload = JSON.parse(fs.readFileSync(path.join(DIR, `${name}.json`), "utf8")) as Record<string, unknown>;
  const sessionId = String(payload.session_id);
  payload.cwd = root;
  payload.transcript_path = path.join(root, ".claude-home", `${sessionId}.jsonl`);
  if (typeof payload.agent_transcript_path === "string") payload.agent_transcript_path = path.join(root, ".claude-home", sessionId, "subagents", `agent-${String(payload.agent_id)}.jsonl`);
  return { ...payload, ...overrides };
}
