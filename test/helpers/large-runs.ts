// Big timelines written straight to disk (the writer's own tests cover appending): a 50,000-entry run
// of several sessions and subagents, or many small runs.
import fs from "node:fs";
import { serializeEntry } from "../../src/domains/replay/timeline-entry.js";
import type { WorkspaceLayout } from "../../src/store/layout.js";

const TOOLS = ["Read", "Edit", "Bash", "Grep", "feature.get", "feature.set_status", "gates.run", "checkpoint.update"];
const MUTATING = new Set(["Edit", "Bash", "feature.set_status", "gates.run", "checkpoint.update"]);

export function writeLargeRun(layout: WorkspaceLayout, runId: string, n: number, startMs = Date.UTC(2026, 2, 1, 9)): void {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const tool = TOOLS[i % TOOLS.length]!;
    const mutating = MUTATING.has(tool);
    const line = serializeEntry({
      ts: new Date(startMs + i * 40).toISOString(), run_id: runId, session_id: `session-${i % 3}`, actor_type: i % 3 === 2 ? "builder" : "agent",
      feature_id: i % 4 === 0 ? "feat_a" : null, tool_name: tool, mutating, operation_id: mutating ? `op-${runId}-${i}` : null,
      idempotency_status: mutating ? (i % 17 === 0 ? "replay" : "new") : "none", request_hash: mutating ? `sha256:${i.toString(16).padStart(64, "0")}` : null,
      result: i % 13 === 0 ? "error" : "ok", error_code: i % 13 === 0 ? "tool_error" : null, latency_ms: (i % 97) * 1.5 + 0.25,
    }, i);
    parts.push(i % 5 === 0 ? line.replace(/}\n$/, `,"agent_id":"agent-${i % 2}","agent_type":"Explore"}\n`) : line);
  }
  fs.mkdirSync(layout.replayDir, { recursive: true });
  fs.writeFileSync(layout.timelineFile(runId), parts.join(""));
}
