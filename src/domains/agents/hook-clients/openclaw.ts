// OpenClaw events onto the hook event model. OpenClaw has no hook commands: its plugins run inside the
// Gateway and register typed hooks with `api.on(...)`. aop's plugin (written by `aop integrate openclaw`,
// its source in openclaw-plugin.ts) sends each event it acts on to `aop hook openclaw` as one JSON object
// named after OpenClaw's hook (`session_start`, `before_prompt_build`, `after_tool_call`,
// `before_compaction`, `before_agent_finalize`, `subagent_spawned`, `subagent_ended`, `session_end`),
// with the session id of the event or its context. Pure.
import { AOP_SERVER, baseEvent, millis, text, type HookEvent, type HookEventKind, type Mapped, type Payload } from "../hook-model.js";

export { openclawShapes } from "./shapes.js";

const KINDS: Record<string, HookEventKind> = {
  session_start: "session_start",
  before_prompt_build: "prompt",
  before_tool_call: "tool_before",
  after_tool_call: "tool_after",
  before_compaction: "compact",
  subagent_spawned: "subagent_start",
  subagent_ended: "subagent_stop",
  before_agent_finalize: "stop",
  session_end: "session_end",
};

export function mapOpenclaw(p: Payload): Mapped {
  const native = text(p.hook_event_name);
  const session = text(p.session_id);
  if (!native) return { ignored: "the payload has no hook_event_name" };
  if (!session) return { ignored: `${native}: the payload has no session_id` };
  let kind = KINDS[native];
  if (!kind) return { ignored: `${native}: aop does not act on this OpenClaw event` };
  // after_tool_call carries `error` for a call that failed (OpenClaw's PluginHookAfterToolCallEvent).
  if (kind === "tool_after" && text(p.error)) kind = "tool_failed";
  // A session_start's `resumedFrom` marks a resumed session; a session_end's `reason` says why it ended.
  // aop's plugin sends `first_prompt` for a session whose start it did not see (a run without session_start).
  const start = text(p.resumed_from) ? "resume" : p.first_prompt === true ? "first_prompt" : "new";
  const detail = native === "session_start" ? start : native === "session_end" ? p.reason : undefined;
  const event: HookEvent = baseEvent(kind, native, session, p, detail);
  if (kind === "prompt" && typeof p.prompt === "string") event.prompt = p.prompt;
  if (kind === "stop") event.stop_hook_active = p.stop_hook_active === true;
  if (kind === "subagent_start" || kind === "subagent_stop") {
    const child = text(p.child_session_key);
    const type = text(p.agent_type);
    if (child) event.agent_id = child;
    if (type) event.agent_type = type;
  }
  if (kind === "tool_before" || kind === "tool_after" || kind === "tool_failed") {
    const name = text(p.tool_name) ?? "unknown";
    const callId = text(p.call_id);
    const duration = millis(p.duration_ms);
    // OpenClaw names an MCP server's tool `<server>__<tool>` (its `tools.deny: ["docs__*"]`).
    event.tool = { name, aop_mcp: name.startsWith(`${AOP_SERVER}__`), ...(callId ? { call_id: callId } : {}), ...(p.tool_input !== undefined ? { input: p.tool_input } : {}), ...(duration !== undefined ? { duration_ms: duration } : {}) };
  }
  return { event };
}
