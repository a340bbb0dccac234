// The one hook event model every client's hook maps onto (DESIGN §22, docs/agents.md): what happened,
// in aop's words, and the timeline entry it makes. Each client's payloads are mapped by its own file in
// hook-clients/; Claude Code keeps its own reader (claude-event.ts), whose events are the model's too.
// Pure: nothing raw is kept — tool inputs and prompts only as hashes, responses not at all.
import { isoUtc } from "../../core/clock.js";
import { hashCanonicalCold } from "../../core/hash.js";
import { idProblem } from "../../core/ids.js";
import type { MarkerToolName } from "../../catalog/timeline-entry.js";
import type { EntryWithoutSequence } from "../replay/index.js";

/** The one internal event model every client's hook maps onto (DESIGN §22). */
export type HookEventKind =
  | "session_start"
  | "prompt"
  | "tool_before"
  | "tool_after"
  | "tool_failed"
  | "tool_denied"
  | "subagent_start"
  | "subagent_stop"
  | "compact"
  | "stop"
  | "session_end";

/** The clients `aop hook <client>` maps through this model (Claude Code has its own reader). */
export const HOOK_CLIENTS = ["codex", "gemini", "cursor", "opencode"] as const;
export type HookClient = (typeof HOOK_CLIENTS)[number];

/** The name aop's MCP server has in every configuration `aop integrate` writes. */
export const AOP_SERVER = "aop";

interface HookTool {
  /** The client's name of the tool. */
  name: string;
  /** The client's id of the call, when it gives one (recorded as the entry's operation_id). */
  call_id?: string;
  input?: unknown;
  duration_ms?: number;
  /** A shell command's exit status, where the client tells it (recorded in the sidecar). */
  exit_status?: number;
  /** A call of aop's own MCP server: `aop mcp` records it, the hook must not (exactly once). */
  aop_mcp: boolean;
}

export interface HookEvent {
  kind: HookEventKind;
  /** The client's own name of the event (the marker's label). */
  native: string;
  session_id: string;
  cwd?: string;
  transcript_path?: string;
  /** A short word the client gives with the event: a session's source, a compaction's trigger, an end's reason. */
  detail?: string;
  tool?: HookTool;
  prompt?: string;
  agent_id?: string;
  agent_type?: string;
  /** The turn already continues because a stop hook asked it to (no second reminder). */
  stop_hook_active?: boolean;
}

/** A client's payload as the model's event, or why it is not one (logged; the hook still exits 0). */
export type Mapped = { event: HookEvent } | { ignored: string; /** an event the client sends on every turn: not logged */ quiet?: true };

export type Payload = Record<string, unknown>;

/** A non-empty string field, else undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A short plain word (a source, trigger or reason), else undefined. */
function word(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,32}$/.test(value) ? value : undefined;
}

/** A label as recorded: at most 128 characters, control characters removed (it reaches terminals). */
export function label(value: unknown): string | undefined {
  // eslint-disable-next-line no-control-regex
  const clean = typeof value === "string" ? value.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").slice(0, 128) : "";
  return clean === "" ? undefined : clean;
}

/** A duration in whole milliseconds, or undefined for anything that is not one. */
export function millis(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/** The event's fields every client shares, from its payload's names for them. */
export function baseEvent(kind: HookEventKind, native: string, sessionId: string, p: Payload, detail?: unknown): HookEvent {
  const cwd = text(p.cwd);
  const transcript = text(p.transcript_path);
  const d = word(detail);
  return { kind, native, session_id: sessionId, ...(cwd ? { cwd } : {}), ...(transcript ? { transcript_path: transcript } : {}), ...(d ? { detail: d } : {}) };
}

/** Run id of a client session's timeline: `<client>-<session_id>` (null when that is no valid id). */
export function runIdFor(client: HookClient, sessionId: string): string | null {
  const runId = `${client}-${sessionId}`;
  return idProblem(runId) === null ? runId : null;
}

/** Tools that change things, across clients (shells, file writes and edits). */
const MUTATING = /^(bash|shell|run_shell_command|exec_command|local_shell|write|write_file|edit|multiedit|replace|apply_patch|notebookedit|patch)$/i;

function hashOf(value: unknown): string | null {
  if (value === undefined) return null;
  try {
    return hashCanonicalCold(value);
  } catch {
    return null; // not representable as canonical JSON: recorded without a fingerprint
  }
}

const ERROR_CODES: Partial<Record<HookEventKind, string>> = { tool_failed: "tool_error", tool_denied: "tool_denied" };
/** A failed call whose command ran and exited non-zero (its status is in the sidecar as `exit_status`). */
const COMMAND_FAILED = "command_exit_nonzero";

/** A finished call as the client's outcome of its command says: failed when the command did (pure). */
export function withCommandOutcome(event: HookEvent, outcome: { failed: boolean; exit_status?: number } | null): HookEvent {
  if (outcome === null || !event.tool || (event.kind !== "tool_after" && event.kind !== "tool_failed")) return event;
  const tool = { ...event.tool, ...(outcome.exit_status !== undefined ? { exit_status: outcome.exit_status } : {}) };
  return { ...event, kind: outcome.failed ? "tool_failed" : event.kind, tool };
}

/** What every entry the hook writes has in common: the session, the agent, the time, the client. */
function sessionEntry(client: HookClient, event: HookEvent, runId: string, nowMs: number): Pick<EntryWithoutSequence, "ts" | "run_id" | "session_id" | "actor_type" | "feature_id" | "idempotency_status" | "transport" | "ext" | "agent_id" | "agent_type"> {
  const id = label(event.agent_id);
  const type = label(event.agent_type);
  const exit = event.tool?.exit_status;
  return {
    ts: isoUtc(nowMs),
    run_id: runId,
    session_id: event.session_id,
    actor_type: "agent",
    feature_id: null,
    idempotency_status: "none",
    transport: `hook:${client}`,
    ext: { client, ...(exit !== undefined ? { exit_status: exit } : {}) },
    ...(id ? { agent_id: id } : {}),
    ...(type ? { agent_type: type } : {}),
  };
}

/** The entry for a finished, failed or denied tool call (not for aop's own MCP calls: the server records those). */
export function entryForToolCall(client: HookClient, event: HookEvent, runId: string, nowMs: number): EntryWithoutSequence {
  const tool = event.tool ?? { name: "unknown", aop_mcp: false };
  const exitedNonZero = event.kind === "tool_failed" && tool.exit_status !== undefined && tool.exit_status !== 0;
  const error = exitedNonZero ? COMMAND_FAILED : (ERROR_CODES[event.kind] ?? null);
  return {
    ...sessionEntry(client, event, runId, nowMs),
    tool_name: tool.name,
    mutating: MUTATING.test(tool.name),
    operation_id: tool.call_id ?? null,
    request_hash: hashOf(tool.input),
    result: error ? "error" : "ok",
    error_code: error,
    latency_ms: tool.duration_ms ?? 0,
  };
}

/** The client's label of a marker: `SessionStart:startup`, `PreCompress:auto`, `stop`. */
function markerLabel(event: HookEvent): string {
  return event.detail ? `${event.native}:${event.detail}` : event.native;
}

/** The reserved tool_name of each marker kind (DESIGN §21); the client's own label goes to the sidecar as `marker`. */
const MARKER_TOOL_NAME: Record<Exclude<HookEventKind, "tool_before" | "tool_after" | "tool_failed" | "tool_denied">, MarkerToolName> = {
  session_start: "session.start",
  prompt: "session.prompt",
  compact: "session.compact",
  subagent_start: "session.subagent_start",
  subagent_stop: "session.subagent_stop",
  stop: "session.stop",
  session_end: "session.end",
};

/** A session marker: the event happened (a prompt keeps only its hash). */
export function markerEntryFor(client: HookClient, event: HookEvent, runId: string, nowMs: number): EntryWithoutSequence {
  const promptHash = event.kind === "prompt" && event.prompt !== undefined ? hashOf(event.prompt) : null;
  if (isToolKind(event.kind)) throw new Error(`a ${event.kind} event is a tool call, not a marker`);
  return {
    ...sessionEntry(client, event, runId, nowMs),
    tool_name: MARKER_TOOL_NAME[event.kind as keyof typeof MARKER_TOOL_NAME],
    mutating: false,
    operation_id: null,
    request_hash: promptHash,
    result: "ok",
    error_code: null,
    latency_ms: 0,
    marker: markerLabel(event),
  };
}

/** The kinds that are tool calls (recorded as calls, once: after, failed or denied — never before). */
export function isToolKind(kind: HookEventKind): boolean {
  return kind === "tool_before" || kind === "tool_after" || kind === "tool_failed" || kind === "tool_denied";
}
