// Calls another hook (or the client's own policy) refused under Codex and Gemini CLI. Neither client
// fires an after-event for such a call, but each writes it into the session log its Stop / AfterAgent
// payload names (`transcript_path`), in its own words (measured with Codex 0.171 and Gemini CLI 0.61,
// docs/agents.md "Refused calls under Codex and Gemini CLI"):
// - Codex's rollout: the `function_call` (or `custom_tool_call`) item, then its output, which Codex
//   writes itself: "Command blocked by PreToolUse hook: <reason>. Command: …" for a shell command (its
//   binary also holds "Tool call blocked by PreToolUse hook: " for other tools). Nothing ran: no
//   `CommandExecution` item, no PostToolUse. A command its exec policy forbids (a `.rules` file's
//   `decision="forbidden"`) gets "exec_command failed: CreateProcess { message: "Rejected(…" instead,
//   and no hook event at all.
// - Gemini's transcript: the model message's `toolCalls`, the refused one with `status: "error"` and the
//   response error "Tool execution blocked: <reason>" (a BeforeTool hook's deny or exit 2) or "Agent
//   execution stopped by hook: <reason>"; a `deny` rule of its policy engine, "Tool execution denied by
//   policy.". Nothing ran: no AfterTool.
// Only these texts at the start of the call's result say it was refused (a Codex command that ran has
// Codex's own "Chunk ID: …" header first); a call the log names without them is left alone. A Gemini
// tool whose own error text began with one would be recorded twice (AfterTool carries no call id to
// tell): docs/agents.md lists that limit.
// Pure: lines in, calls out.

/** A refused call as the session log names it. */
export interface BlockedCall {
  /** The client's id of the call (recorded as the entry's operation_id; the key that keeps it once). */
  call_id: string;
  /** The tool's name as the client's hooks name it. */
  name: string;
  input?: unknown;
  /** When the log says the call was made (ISO time), if it does. */
  ts?: string;
  /** Who refused it: another hook (PreToolUse / BeforeTool), or the client's own policy rules. */
  blocked_by: "hook" | "policy";
}

export interface LogLines {
  /** The log's lines that hold one of the needles asked for, as text. */
  lines: string[];
  /** Lines that could not be read, each kind with its count (reported, never fatal). */
  skipped: { overlong: number; torn: number; unparseable: number };
}

/** The texts a Codex output item starts with when a PreToolUse hook refused the call (Codex 0.171). */
const CODEX_BLOCKED = ["Command blocked by PreToolUse hook: ", "Tool call blocked by PreToolUse hook: "];
/** What Codex 0.171 writes for a command its exec policy (`.rules`, `decision="forbidden"`) refused: the spawn's error, as Rust prints it. */
const CODEX_FORBIDDEN = /^[a-z_]+ failed: CreateProcess \{ message: "Rejected\(/;
/** What the rollout lines of a refused call hold: the first pass parses only lines with one of these. */
export const CODEX_NEEDLES = ["blocked by PreToolUse hook: ", "Rejected("];

/** The texts a Gemini CLI tool response's error starts with when a BeforeTool hook refused the call (0.61). */
const GEMINI_BLOCKED = ["Tool execution blocked: ", "Agent execution stopped by hook: "];
/** …and when a `deny` rule of its policy engine did (0.61). */
const GEMINI_DENIED = "Tool execution denied by policy.";
export const GEMINI_NEEDLES = [...GEMINI_BLOCKED, GEMINI_DENIED];

/** Who refused a call, by the text the client wrote for it; null when the text is not a refusal. */
function codexRefusal(text: string): BlockedCall["blocked_by"] | null {
  if (CODEX_BLOCKED.some((p) => text.startsWith(p))) return "hook";
  return CODEX_FORBIDDEN.test(text) ? "policy" : null;
}

function geminiRefusal(text: string): BlockedCall["blocked_by"] | null {
  if (GEMINI_BLOCKED.some((p) => text.startsWith(p))) return "hook";
  return text.startsWith(GEMINI_DENIED) ? "policy" : null;
}

type Json = Record<string, unknown>;

function record(value: unknown): Json | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
}

function parse(line: string, skipped: LogLines["skipped"]): Json | null {
  try {
    const value = record(JSON.parse(line));
    if (value) return value;
  } catch {
    // counted below
  }
  skipped.unparseable += 1;
  return null;
}

function isoTime(value: unknown): string | undefined {
  return typeof value === "string" && Number.isFinite(Date.parse(value)) ? value : undefined;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= 256 ? value : undefined;
}

/** A Codex output item's text: a string, or the text parts of a content list. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  const items = Array.isArray(output) ? output : Array.isArray(record(output)?.content) ? (record(output)!.content as unknown[]) : [];
  return items.map((i) => (typeof record(i)?.text === "string" ? (record(i)!.text as string) : "")).join("");
}

/** The ids of the calls Codex says were refused, and by whom, from rollout lines (pass 1). */
export function codexBlockedIds(lines: readonly string[], skipped: LogLines["skipped"]): Map<string, BlockedCall["blocked_by"]> {
  const ids = new Map<string, BlockedCall["blocked_by"]>();
  for (const line of lines) {
    const payload = record(parse(line, skipped)?.payload);
    if (payload?.type !== "function_call_output" && payload?.type !== "custom_tool_call_output") continue;
    const id = nonEmpty(payload.call_id);
    const by = codexRefusal(outputText(payload.output));
    if (id && by && !ids.has(id)) ids.set(id, by);
  }
  return ids;
}

/** Codex's hooks call its shell tool `Bash` (measured: PreToolUse for `exec_command` says `Bash`) and an MCP tool `<namespace>__<tool>`. */
function codexHookName(name: string, namespace: string | undefined): string {
  if (name === "exec_command") return "Bash";
  if (namespace) return namespace.endsWith("_") ? `${namespace}${name}` : `${namespace}__${name}`;
  return name;
}

function codexInput(payload: Json): unknown {
  if (typeof payload.arguments === "string") {
    try {
      return JSON.parse(payload.arguments) as unknown;
    } catch {
      return payload.arguments;
    }
  }
  return payload.input;
}

/** The refused calls themselves, from the rollout lines naming their ids (pass 2); a call whose item is not found keeps the name `unknown`. */
export function codexBlockedCalls(ids: ReadonlyMap<string, BlockedCall["blocked_by"]>, lines: readonly string[], skipped: LogLines["skipped"]): BlockedCall[] {
  const found = new Map<string, BlockedCall>();
  for (const line of lines) {
    const value = parse(line, skipped);
    const payload = record(value?.payload);
    if (payload?.type !== "function_call" && payload?.type !== "custom_tool_call") continue;
    const id = nonEmpty(payload.call_id);
    const name = nonEmpty(payload.name);
    const by = id ? ids.get(id) : undefined;
    if (!id || !name || !by || found.has(id)) continue;
    const ts = isoTime(value?.timestamp);
    const input = codexInput(payload);
    found.set(id, { call_id: id, name: codexHookName(name, nonEmpty(payload.namespace)), ...(input !== undefined ? { input } : {}), ...(ts ? { ts } : {}), blocked_by: by });
  }
  return [...ids].map(([id, by]) => found.get(id) ?? { call_id: id, name: "unknown", blocked_by: by });
}

/** The error text of a Gemini tool call's response, if it has one. */
function geminiError(call: Json): string | undefined {
  const results = Array.isArray(call.result) ? call.result : [];
  for (const part of results) {
    const error = record(record(record(part)?.functionResponse)?.response)?.error;
    if (typeof error === "string") return error;
  }
  return undefined;
}

/** A transcript line's tool calls: a message's own, or those of the messages a `$set` line writes. */
function geminiToolCalls(value: Json): Json[] {
  const messages = [value, ...(Array.isArray(record(value.$set)?.messages) ? (record(value.$set)!.messages as unknown[]) : [])];
  return messages.flatMap((m) => (Array.isArray(record(m)?.toolCalls) ? (record(m)!.toolCalls as unknown[]) : [])).flatMap((c) => (record(c) ? [record(c)!] : []));
}

/** The calls Gemini CLI says a BeforeTool hook or its policy refused, from transcript lines (Gemini rewrites a message as it goes: each call once). */
export function geminiBlockedCalls(lines: readonly string[], skipped: LogLines["skipped"]): BlockedCall[] {
  const found = new Map<string, BlockedCall>();
  for (const line of lines) {
    const value = parse(line, skipped);
    if (!value) continue;
    for (const call of geminiToolCalls(value)) {
      const id = nonEmpty(call.id);
      const name = nonEmpty(call.name);
      const error = geminiError(call);
      const by = error !== undefined ? geminiRefusal(error) : null;
      if (!id || !name || found.has(id) || call.status !== "error" || !by) continue;
      const ts = isoTime(call.timestamp);
      found.set(id, { call_id: id, name, ...(call.args !== undefined ? { input: call.args } : {}), ...(ts ? { ts } : {}), blocked_by: by });
    }
  }
  return [...found.values()];
}
