// Codex hook payloads (hooks.json / [hooks] in config.toml; captured from Codex 0.171 in
// test/adapters/hooks/payloads/codex/) onto the hook event model. Codex's events and outputs follow
// Claude Code's: SessionStart takes hookSpecificOutput.additionalContext, Stop takes decision/reason.
// Pure.
import { AOP_SERVER, baseEvent, millis, text, type HookEvent, type HookEventKind, type Mapped, type Payload } from "../hook-model.js";
import { claudeShapes, type ClientShapes } from "./shapes.js";

const KINDS: Record<string, HookEventKind> = {
  SessionStart: "session_start",
  UserPromptSubmit: "prompt",
  PreToolUse: "tool_before",
  PostToolUse: "tool_after",
  PreCompact: "compact",
  SubagentStart: "subagent_start",
  SubagentStop: "subagent_stop",
  Stop: "stop",
  SessionEnd: "session_end",
};

/** Codex names an MCP tool `mcp__<server>__<tool>`. */
const AOP_PREFIX = `mcp__${AOP_SERVER}__`;

/** An MCP result Codex passes on with `isError: true`: the call failed. */
function failed(response: unknown): boolean {
  return response !== null && typeof response === "object" && (response as { isError?: unknown }).isError === true;
}

export function mapCodex(p: Payload): Mapped {
  const native = text(p.hook_event_name);
  const session = text(p.session_id);
  if (!native) return { ignored: "the payload has no hook_event_name" };
  if (!session) return { ignored: `${native}: the payload has no session_id` };
  let kind = KINDS[native];
  if (!kind) return { ignored: `${native}: aop does not act on this Codex event` };
  if (kind === "tool_after" && failed(p.tool_response)) kind = "tool_failed";
  const event: HookEvent = baseEvent(kind, native, session, p, p.source ?? p.trigger ?? p.reason);
  if (kind === "prompt" && typeof p.prompt === "string") event.prompt = p.prompt;
  if (kind === "stop" || kind === "subagent_stop") event.stop_hook_active = p.stop_hook_active === true;
  const agent = text(p.agent_id);
  if (agent) event.agent_id = agent;
  const agentType = text(p.agent_type);
  if (agentType) event.agent_type = agentType;
  if (kind === "tool_before" || kind === "tool_after" || kind === "tool_failed") {
    const name = text(p.tool_name) ?? "unknown";
    const callId = text(p.tool_use_id);
    const duration = millis(p.duration_ms);
    event.tool = { name, aop_mcp: name.startsWith(AOP_PREFIX), ...(callId ? { call_id: callId } : {}), ...(p.tool_input !== undefined ? { input: p.tool_input } : {}), ...(duration !== undefined ? { duration_ms: duration } : {}) };
  }
  return { event };
}

export const codexShapes: ClientShapes = claudeShapes;
