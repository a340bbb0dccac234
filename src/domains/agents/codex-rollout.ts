// What Codex's PostToolUse payload does not say: whether a shell command failed. Its `tool_response` is
// the command's output text alone, the same for `exit 0` and `exit 3` (captured from Codex 0.171,
// test/adapters/hooks/payloads/codex/). Codex writes the call's end into the session's rollout (the
// payload's `transcript_path`) before it runs PostToolUse: an `item_completed` event whose item — type
// `CommandExecution`, id the call id — holds `status` ("completed" / "failed") and `exit_code`. The hook
// reads the rollout's last lines for it (bounded); without it the call is recorded `ok` (docs/agents.md).
import { readJsonlTail } from "../../store/jsonl-tail.js";

export interface CommandOutcome {
  failed: boolean;
  /** The command's exit status, when Codex gives one. */
  exit_status?: number;
}

/** How many of the rollout's last lines are searched: the call's end is among the last few written. */
const TAIL_LINES = 16;

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The outcome of call `callId` among rollout lines (oldest first), or null when none of them tells. Pure. */
export function commandOutcomeIn(lines: readonly string[], callId: string): CommandOutcome | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    // Most lines are other events: parse only those that can be this one.
    if (!line.includes("CommandExecution") || !line.includes(callId)) continue;
    let payload: Record<string, unknown> | null;
    try {
      payload = record(record(JSON.parse(line))?.payload);
    } catch {
      continue;
    }
    const item = record(payload?.item);
    if (payload?.type !== "item_completed" || item?.type !== "CommandExecution" || item.id !== callId) continue;
    const exit = Number.isInteger(item.exit_code) ? (item.exit_code as number) : undefined;
    return { failed: item.status === "failed" || (exit !== undefined && exit !== 0), ...(exit !== undefined ? { exit_status: exit } : {}) };
  }
  return null;
}

/** The outcome of call `callId` from the rollout at `transcriptPath`, or null (no such file, nothing about the call, unreadable). */
export function readCommandOutcome(transcriptPath: string, callId: string): CommandOutcome | null {
  try {
    const tail = readJsonlTail(transcriptPath, TAIL_LINES);
    return tail === null ? null : commandOutcomeIn(tail.lines, callId);
  } catch {
    return null; // a rollout that cannot be read only costs the outcome
  }
}
