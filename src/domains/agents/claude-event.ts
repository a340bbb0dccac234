// Claude Code hook events: parsing stdin, and turning an event into a timeline entry. Pure.
// Nothing raw is kept: tool inputs and prompts only as hashes, responses not at all.
import { hashCanonicalCold } from "../../core/hash.js";
import { isoUtc } from "../../core/clock.js";
import { idProblem } from "../../core/ids.js";
import type { EntryWithoutSequence } from "../replay/index.js";
import type { MarkerToolName, TimelineExt } from "../../catalog/timeline-entry.js";
import type { ScannedEvent } from "./event-scan.js";

/** PermissionDenied: a permission rule, the auto-mode classifier or a hook refused the call (it never ran). */
export const TOOL_EVENTS = ["PostToolUse", "PostToolUseFailure", "PermissionDenied"] as const;
/** Events aop records as markers in the session's timeline (besides tool calls). */
export const MARKER_EVENTS = ["SessionStart", "PreCompact", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"] as const;

/** Claude Code tools that change things (files, notebooks, or anything through a shell). */
const MUTATING_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit", "Bash"]);

/** How Claude Code names the tools of the `aop` server configured by `aop integrate claude`. */
export const AOP_MCP_PREFIX = "mcp__aop__";

export interface ClaudeHookEvent {
  hook_event_name: string;
  session_id: string;
  transcript_path?: string;
  cwd?: string;
  agent_id?: string;
  agent_type?: string;
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  duration_ms?: number;
  error?: string;
  is_interrupt?: boolean;
  source?: string;
  trigger?: string;
  reason?: string;
  prompt?: string;
  stop_hook_active?: boolean;
}

/** What the hook holds of an event on stdin; a larger one is read as a stream (event-scan.ts) and kept only in part. */
export const MAX_EVENT_BYTES = 32 * 1024 * 1024;

/** An event over MAX_EVENT_BYTES: its size, and the top-level fields whose values were too large to read. */
export interface OverBound {
  bytes: number;
  unread: string[];
}

function overBoundText(bytes: number): string {
  return `the event is ${bytes} bytes, over the ${MAX_EVENT_BYTES / (1024 * 1024)} MiB read bound`;
}

/** An event over the read bound, from the fields read as it streamed, or the true reason it cannot be used. */
export function eventFromScan(scan: ScannedEvent): { event: ClaudeHookEvent; overBound: OverBound } | { problem: string } {
  const over = overBoundText(scan.bytes);
  if (scan.problem !== null) return { problem: `${over}, and ${scan.problem}: not recorded` };
  const f = scan.fields;
  if (typeof f.hook_event_name !== "string") return { problem: `${over}, and has no hook_event_name: not recorded` };
  if (typeof f.session_id !== "string") return { problem: `${f.hook_event_name}: ${over}, and has no session_id: not recorded` };
  return { event: f as unknown as ClaudeHookEvent, overBound: { bytes: scan.bytes, unread: scan.unread } };
}

/** What the hook log says about an event over the bound that is recorded anyway. */
export function overBoundNote(overBound: OverBound): string {
  const unread = overBound.unread.length > 0 ? `${overBound.unread.join(", ")} not read` : "every field read";
  return `${overBoundText(overBound.bytes)}: recorded from its other fields (${unread})`;
}

/** Why `request_hash` is null: the field it hashes was too large to read. */
function hashSkipped(overBound: OverBound | undefined, key: string): Pick<EntryWithoutSequence, "request_hash_skipped"> {
  return overBound?.unread.includes(key) ? { request_hash_skipped: `${key} not hashed: ${overBoundText(overBound.bytes)}` } : {};
}

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

/** A short plain word from the event (a source, trigger or reason), or null for anything else. */
function word(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,32}$/.test(value) ? value : null;
}

/** An agent id or type as recorded: at most 128 characters, control characters removed (it reaches terminals). */
function label(value: unknown): string | undefined {
  // eslint-disable-next-line no-control-regex
  const clean = typeof value === "string" ? value.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").slice(0, 128) : "";
  return clean === "" ? undefined : clean;
}

/** The subagent fields of an event made inside a subagent (absent otherwise). */
function agentFields(event: ClaudeHookEvent): Pick<EntryWithoutSequence, "agent_id" | "agent_type"> {
  const id = label(event.agent_id);
  const type = label(event.agent_type);
  return { ...(id ? { agent_id: id } : {}), ...(type ? { agent_type: type } : {}) };
}

function hashOf(value: unknown): string | null {
  if (value === undefined) return null;
  try {
    return hashCanonicalCold(value); // the hook hashes once per process
  } catch {
    return null; // not representable as canonical JSON: recorded without a fingerprint
  }
}

/** What every entry the hook writes has in common: the session, the agent, the time. */
function sessionEntry(event: ClaudeHookEvent, runId: string, nowMs: number, call: Pick<EntryWithoutSequence, "tool_name" | "mutating" | "operation_id" | "request_hash" | "result" | "error_code" | "latency_ms">): EntryWithoutSequence {
  return { ts: isoUtc(nowMs), run_id: runId, session_id: event.session_id, actor_type: "agent", feature_id: null, idempotency_status: "none", ...call, ...agentFields(event) };
}

/**
 * The timeline entry for a PostToolUse / PostToolUseFailure / PermissionDenied event (sequence allocated by the writer).
 * `aopTool` names the catalog tool behind an `mcp__aop__…` name, so the call keeps its canonical name.
 */
export function entryForToolEvent(event: ClaudeHookEvent, runId: string, nowMs: number, aopTool?: { name: string; mutating: boolean }, overBound?: OverBound): EntryWithoutSequence {
  const failed = event.hook_event_name === "PostToolUseFailure";
  const denied = event.hook_event_name === "PermissionDenied";
  const toolName = typeof event.tool_name === "string" && event.tool_name !== "" ? event.tool_name : "unknown";
  const entry = sessionEntry(event, runId, nowMs, {
    tool_name: aopTool?.name ?? toolName,
    mutating: aopTool?.mutating ?? MUTATING_TOOLS.has(toolName),
    operation_id: typeof event.tool_use_id === "string" ? event.tool_use_id : null,
    request_hash: hashOf(event.tool_input),
    result: failed || denied ? "error" : "ok",
    error_code: denied ? "tool_denied" : failed ? (event.is_interrupt === true ? "interrupted" : "tool_error") : null,
    latency_ms: typeof event.duration_ms === "number" && Number.isFinite(event.duration_ms) && event.duration_ms >= 0 ? Math.round(event.duration_ms) : 0,
  });
  // Kept in the sidecar (DESIGN §21): which client made the call, and its own id for it.
  const ext: TimelineExt = { client: "claude" };
  if (typeof event.tool_use_id === "string") ext.tool_use_id = event.tool_use_id;
  return { ...entry, ...hashSkipped(overBound, "tool_input"), ext };
}

/** The entry `aop mcp` left for this call, filed under the session (and its subagent, if any). */
export function adoptedEntry(serverEntry: EntryWithoutSequence, event: ClaudeHookEvent, runId: string): EntryWithoutSequence {
  const { agent_id: _id, agent_type: _type, marker: _marker, ...kernel } = serverEntry;
  return { ...kernel, run_id: runId, session_id: event.session_id, ...agentFields(event) };
}

/** Claude Code's own label of the event (`SessionStart:startup`, `PreCompact:auto`, `SessionEnd:other`, `Stop`). */
function markerLabel(event: ClaudeHookEvent): string {
  const detail = event.hook_event_name === "SessionStart" ? word(event.source) : event.hook_event_name === "PreCompact" ? word(event.trigger) : event.hook_event_name === "SessionEnd" ? word(event.reason) : null;
  return detail ? `${event.hook_event_name}:${detail}` : event.hook_event_name;
}

/** The reserved tool_name of each marker event (DESIGN §21); Claude Code's own label goes to the sidecar as `marker`. */
const MARKER_TOOL_NAME: Record<(typeof MARKER_EVENTS)[number], MarkerToolName> = {
  SessionStart: "session.start",
  PreCompact: "session.compact",
  UserPromptSubmit: "session.prompt",
  SubagentStart: "session.subagent_start",
  SubagentStop: "session.subagent_stop",
  Stop: "session.stop",
  SessionEnd: "session.end",
};

/** A session marker: the event happened (UserPromptSubmit keeps only the prompt's hash). */
export function markerEntry(event: ClaudeHookEvent, runId: string, nowMs: number, overBound?: OverBound): EntryWithoutSequence {
  const prompted = event.hook_event_name === "UserPromptSubmit";
  const promptHash = prompted && typeof event.prompt === "string" ? hashOf(event.prompt) : null;
  const toolName = MARKER_TOOL_NAME[event.hook_event_name as (typeof MARKER_EVENTS)[number]] ?? "session.start";
  const entry = sessionEntry(event, runId, nowMs, { tool_name: toolName, mutating: false, operation_id: null, request_hash: promptHash, result: "ok", error_code: null, latency_ms: 0 });
  return { ...entry, marker: markerLabel(event), ...(prompted ? hashSkipped(overBound, "prompt") : {}) };
}
