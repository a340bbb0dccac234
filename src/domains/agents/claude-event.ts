// Claude Code hook events: parsing stdin, and turning a tool event into a timeline entry. Pure.
// The raw tool input and response are never kept: only a hash of the canonical input.
import { hashCanonical } from "../../core/hash.js";
import { isoUtc } from "../../core/clock.js";
import { idProblem } from "../../core/ids.js";
import { readEntryContext, type EntryWithoutSequence } from "../replay/index.js";

export const TOOL_EVENTS = ["PostToolUse", "PostToolUseFailure"] as const;
export const CONTEXT_EVENTS = ["SessionStart", "PreCompact"] as const;

/** Claude Code tools that change things (files, notebooks, or anything through a shell). */
export const MUTATING_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit", "Bash"]);

export interface ClaudeHookEvent {
  hook_event_name: string;
  session_id: string;
  transcript_path?: string;
  cwd?: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  duration_ms?: number;
  error?: string;
  is_interrupt?: boolean;
  source?: string;
  trigger?: string;
  /** Set inside subagents: which subagent made the call (its calls group under it). */
  agent_id?: string;
  agent_type?: string;
}

export const MAX_EVENT_BYTES = 32 * 1024 * 1024;

/** The event, or why it cannot be used (logged; the hook still exits 0). */
export function parseHookEvent(text: string): { event: ClaudeHookEvent } | { problem: string } {
  if (text.trim() === "") return { problem: "empty stdin: no hook event" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { problem: `stdin is not JSON: ${(err as Error).message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { problem: "the hook event is not a JSON object" };
  const v = value as Record<string, unknown>;
  if (typeof v.hook_event_name !== "string") return { problem: "the hook event has no hook_event_name" };
  if (typeof v.session_id !== "string") return { problem: `${v.hook_event_name}: the hook event has no session_id` };
  return { event: v as unknown as ClaudeHookEvent };
}

/** Run id of a Claude Code session's timeline: `claude-<session_id>`. */
export function runIdForSession(sessionId: string): string | null {
  const runId = `claude-${sessionId}`;
  return idProblem(runId) === null ? runId : null;
}

/** The timeline entry for a PostToolUse / PostToolUseFailure event (sequence allocated by the writer). */
export function entryForToolEvent(event: ClaudeHookEvent, runId: string, nowMs: number): EntryWithoutSequence {
  const failed = event.hook_event_name === "PostToolUseFailure";
  const toolName = typeof event.tool_name === "string" && event.tool_name !== "" ? event.tool_name : "unknown";
  let requestHash: string | null = null;
  if (event.tool_input !== undefined) {
    try {
      requestHash = hashCanonical(event.tool_input);
    } catch {
      requestHash = null; // not representable as canonical JSON: record the call without a fingerprint
    }
  }
  return {
    ts: isoUtc(nowMs),
    run_id: runId,
    session_id: event.session_id,
    actor_type: "agent",
    feature_id: null,
    tool_name: toolName,
    mutating: MUTATING_TOOLS.has(toolName),
    operation_id: typeof event.tool_use_id === "string" ? event.tool_use_id : null,
    idempotency_status: "none",
    request_hash: requestHash,
    result: failed ? "error" : "ok",
    error_code: failed ? (event.is_interrupt === true ? "interrupted" : "tool_error") : null,
    latency_ms: typeof event.duration_ms === "number" && Number.isFinite(event.duration_ms) && event.duration_ms >= 0 ? event.duration_ms : 0,
    // The same rule that reads the keys back decides which values are kept (non-empty, bounded text).
    ...readEntryContext({ agent_id: event.agent_id, agent_type: event.agent_type }),
  };
}
