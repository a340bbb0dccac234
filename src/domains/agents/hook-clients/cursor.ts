// Cursor hook payloads (.cursor/hooks.json) onto the hook event model. Cursor's CLI is not on the npm
// registry, so this mapping is tested with payloads written from Cursor's documented schema
// (https://cursor.com/docs/agent/hooks; fixtures in test/adapters/hooks/payloads/cursor/). Every
// event carries `conversation_id` (the session) and `hook_event_name`. Pure.
import { AOP_SERVER, baseEvent, label, millis, text, type HookEvent, type HookEventKind, type Mapped, type Payload } from "../hook-model.js";

export { cursorShapes } from "./shapes.js";

const KINDS: Record<string, HookEventKind> = {
  sessionStart: "session_start",
  beforeSubmitPrompt: "prompt",
  preToolUse: "tool_before",
  postToolUse: "tool_after",
  postToolUseFailure: "tool_failed",
  subagentStart: "subagent_start",
  subagentStop: "subagent_stop",
  preCompact: "compact",
  stop: "stop",
  sessionEnd: "session_end",
};

/**
 * The MCP tool a Cursor tool name stands for: Cursor names MCP tools `MCP:<tool>` (its matcher syntax);
 * `aopTools` holds aop's MCP tool names, so that another server's tool of another name is not taken.
 */
function isAopMcp(name: string, aopTools: ReadonlySet<string>): boolean {
  for (const prefix of ["MCP:", `mcp__${AOP_SERVER}__`, `mcp_${AOP_SERVER}_`]) if (name.startsWith(prefix)) return aopTools.has(name.slice(prefix.length));
  return false;
}

export function mapCursor(p: Payload, aopTools: ReadonlySet<string>): Mapped {
  const native = text(p.hook_event_name);
  const session = text(p.conversation_id) ?? text(p.session_id);
  if (!native) return { ignored: "the payload has no hook_event_name" };
  if (!session) return { ignored: `${native}: the payload has no conversation_id` };
  let kind = KINDS[native];
  if (!kind) return { ignored: `${native}: aop does not act on this Cursor event (the generic tool events record every call)` };
  if (kind === "tool_failed" && p.failure_type === "permission_denied") kind = "tool_denied";
  const event: HookEvent = baseEvent(kind, native, session, p, p.source ?? p.trigger ?? p.reason ?? (kind === "stop" ? p.status : undefined));
  if (!event.cwd && Array.isArray(p.workspace_roots) && typeof p.workspace_roots[0] === "string") event.cwd = p.workspace_roots[0];
  if (kind === "prompt" && typeof p.prompt === "string") event.prompt = p.prompt;
  const agent = label(p.subagent_id) ?? label(p.agent_id);
  if (agent && (kind === "subagent_start" || kind === "subagent_stop")) event.agent_id = agent;
  const agentType = label(p.subagent_type);
  if (agentType && (kind === "subagent_start" || kind === "subagent_stop")) event.agent_type = agentType;
  // Cursor counts its own follow-ups: a stop after one (loop_count > 0) gets no second reminder.
  if (kind === "stop") event.stop_hook_active = typeof p.loop_count === "number" && p.loop_count > 0;
  if (kind === "tool_before" || kind === "tool_after" || kind === "tool_failed" || kind === "tool_denied") {
    const name = text(p.tool_name) ?? "unknown";
    const callId = text(p.tool_use_id);
    const duration = millis(p.duration);
    event.tool = { name, aop_mcp: isAopMcp(name, aopTools), ...(callId ? { call_id: callId } : {}), ...(p.tool_input !== undefined ? { input: p.tool_input } : {}), ...(duration !== undefined ? { duration_ms: duration } : {}) };
  }
  return { event };
}
