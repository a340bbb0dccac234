// `aop hook codex|gemini|cursor|opencode|openclaw`: one client event, mapped onto the hook event model
// (hook-model.ts) by the client's own file in hook-clients/, then acted on the same way for every
// client (docs/agents.md has the table): the orientation printed at session start, the stop reminder
// at stop, each tool call recorded once — after it ran, failed or was refused; never aop's own MCP
// calls, which `aop mcp` records — and the session's markers. Like the Claude Code hook it never
// blocks the agent: problems go to .aop/runtime/hooks.log and outside a workspace nothing happens.
import { isoUtc } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { Policy } from "../../config/policy-types.js";
import { closeSession, hookWorkspace, loadPolicy, record, sessionExists, type HookIo } from "./claude-hook.js";
import { entryForToolCall, isToolKind, markerEntryFor, runIdFor, withCommandOutcome, type HookClient, type HookEvent, type Mapped, type Payload } from "./hook-model.js";
import { CLIENT_HOOKS } from "./hook-clients/index.js";
import { logHook } from "./hook-log.js";

function parsePayload(text: string): { payload: Payload } | { problem: string } {
  if (text.trim() === "") return { problem: "empty stdin: no hook event" };
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { problem: "the hook event is not a JSON object" };
    return { payload: value as Payload };
  } catch (err) {
    return { problem: `stdin is not JSON: ${(err as Error).message}` };
  }
}

/** aop's MCP tool names (Cursor's payloads name a tool without its server). */
async function aopToolNames(): Promise<ReadonlySet<string>> {
  const { loadCatalog, mcpToolName } = await import("../../catalog/catalog.js");
  return new Set(loadCatalog().tools.map((t) => mcpToolName(t.name)));
}

async function printOrientation(client: HookClient, layout: WorkspaceLayout, io: HookIo): Promise<void> {
  const { buildOrientation } = await import("./orientation.js");
  const { text } = await buildOrientation(layout, io.clock, io.env, await io.doctorFamilies());
  const out = CLIENT_HOOKS[client].shapes.sessionStart(text);
  if (out !== "") io.stdout(out);
}

/** Codex says whether a command failed only in its rollout (codex-rollout.ts): read there. */
async function withOutcome(client: HookClient, event: HookEvent): Promise<HookEvent> {
  const callId = event.tool?.call_id;
  if (client !== "codex" || event.kind !== "tool_after" || !callId || !event.transcript_path) return event;
  const { readCommandOutcome } = await import("./codex-rollout.js");
  return withCommandOutcome(event, readCommandOutcome(event.transcript_path, callId));
}

/**
 * Codex and Gemini CLI fire no after-event for a call another hook refused; their session log names it.
 * At a stop (or the session's end) each such call the run does not hold yet is recorded once, as
 * `tool_denied`, before the marker (session-log.ts).
 */
async function recordBlocked(client: HookClient, layout: WorkspaceLayout, event: HookEvent, runId: string, io: HookIo, policy: Policy): Promise<void> {
  if ((client !== "codex" && client !== "gemini") || !event.transcript_path) return;
  const { MAX_LOG_SCAN_BYTES, blockedCallsIn, entryForBlockedCall, recordedCallIds } = await import("./session-log.js");
  const found = blockedCallsIn(client, event.transcript_path);
  const where = `${client}:${event.native}`;
  if ("problem" in found) return logHook(layout, "warning", where, `refused calls not looked for: ${found.problem}`);
  const { overlong, torn, unparseable } = found.skipped;
  if (overlong + torn + unparseable > 0 || found.from > 0) {
    const parts = [found.from > 0 ? `its first ${found.from} bytes (a stop reads the last ${MAX_LOG_SCAN_BYTES} bytes)` : "", overlong ? `${overlong} line(s) over the 1 MiB line bound` : "", unparseable ? `${unparseable} line(s) that are not JSON objects` : "", torn ? `${torn} unfinished last line` : ""].filter((p) => p !== "");
    logHook(layout, "info", where, `session log ${event.transcript_path}: skipped ${parts.join(", ")} while looking for refused calls`);
  }
  if (found.calls.length === 0) return;
  const known = recordedCallIds(layout, runId, found.calls.map((c) => c.call_id));
  for (const call of found.calls) if (!known.has(call.call_id)) await record(layout, entryForBlockedCall(client, event, call, runId, io.clock.now()), io, policy);
}

async function act(client: HookClient, layout: WorkspaceLayout, event: HookEvent, runId: string, io: HookIo): Promise<void> {
  if (isToolKind(event.kind)) {
    // Recorded once: after the call (or its failure or refusal), never before; aop's own calls by `aop mcp`.
    if (event.kind === "tool_before" || event.tool?.aop_mcp) return;
    await record(layout, entryForToolCall(client, await withOutcome(client, event), runId, io.clock.now()), io);
    return;
  }
  // Output first: the client reads stdout when the process ends, and recording can wait on a lock.
  if (event.kind === "session_start") await printOrientation(client, layout, io);
  const policy = await loadPolicy(layout);
  if (event.kind === "stop") {
    const { stopReminder } = await import("./stop-reminder.js");
    const reminder = stopReminder(layout, event, policy.hooks.claude.stop_reminder, runId, isoUtc(io.clock.now()));
    if (reminder) {
      const out = CLIENT_HOOKS[client].shapes.stop(reminder);
      if (out !== "") io.stdout(out);
    }
  }
  if (event.kind === "session_end" && !(await sessionExists(layout, runId))) return closeSession(layout, runId, policy, io);
  if (event.kind === "stop" || event.kind === "session_end") await recordBlocked(client, layout, event, runId, io, policy);
  await record(layout, markerEntryFor(client, event, runId, io.clock.now()), io, policy);
  if (event.kind === "session_end") await closeSession(layout, runId, policy, io);
}

export async function runClientHook(client: HookClient, io: HookIo): Promise<void> {
  const parsed = parsePayload(io.stdin);
  const payload = "payload" in parsed ? parsed.payload : null;
  const roots = payload && Array.isArray(payload.workspace_roots) ? payload.workspace_roots : [];
  const cwd = typeof payload?.cwd === "string" ? payload.cwd : typeof roots[0] === "string" ? roots[0] : undefined;
  const layout = hookWorkspace(io, cwd ? { cwd } : null);
  if (!layout) return; // not in a workspace: nothing to record, nothing to create
  const name = typeof payload?.hook_event_name === "string" ? payload.hook_event_name.slice(0, 64) : "unknown";
  try {
    if (!payload) {
      logHook(layout, "warning", `${client}:unknown`, `ignored: ${"problem" in parsed ? parsed.problem : ""}`);
      return;
    }
    const mapped: Mapped = CLIENT_HOOKS[client].map(payload, client === "cursor" ? await aopToolNames() : new Set());
    if ("ignored" in mapped) {
      if (mapped.quiet) return;
      logHook(layout, "info", `${client}:${name}`, `ignored: ${mapped.ignored}`);
      return;
    }
    const runId = runIdFor(client, mapped.event.session_id);
    if (!runId) {
      logHook(layout, "warning", `${client}:${name}`, `session id '${mapped.event.session_id.slice(0, 80)}' cannot name a run; not recorded`);
      if (mapped.event.kind === "session_start") await printOrientation(client, layout, io);
      return;
    }
    await act(client, layout, mapped.event, runId, io);
  } catch (err) {
    logHook(layout, "error", `${client}:${name}`, err instanceof Error ? err.message : String(err));
  }
}
