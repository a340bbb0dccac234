// opencode events onto the hook event model. opencode has no hook commands: its plugins run inside it.
// aop's plugin (written by `aop integrate opencode`, plugin-source in opencode-plugin.ts) sends each
// event it acts on to `aop hook opencode` as one JSON object with opencode's own names: bus events
// (`session.created`, `session.compacted`, `session.idle`, `session.deleted`), `chat.message`, and a
// tool part's end (`tool.completed`, `tool.error`, once per call id). opencode reports a shell command
// that ran and exited non-zero as `completed`; its bash tool's `metadata.exit` (captured from opencode
// 1.18.33), which the plugin passes on as `exit_status`, says it failed. Pure.
import { AOP_SERVER, baseEvent, millis, text, withCommandOutcome, type HookEvent, type HookEventKind, type Mapped, type Payload } from "../hook-model.js";

export { opencodeShapes } from "./shapes.js";

const KINDS: Record<string, HookEventKind> = {
  "session.created": "session_start",
  "chat.message": "prompt",
  "tool.completed": "tool_after",
  "tool.error": "tool_failed",
  "session.compacted": "compact",
  "session.idle": "stop",
  "session.deleted": "session_end",
};

export function mapOpencode(p: Payload): Mapped {
  const native = text(p.hook_event_name);
  const session = text(p.session_id);
  if (!native) return { ignored: "the payload has no hook_event_name" };
  if (!session) return { ignored: `${native}: the payload has no session_id` };
  let kind = KINDS[native];
  if (!kind) return { ignored: `${native}: aop does not act on this opencode event` };
  if (kind === "tool_failed" && p.denied === true) kind = "tool_denied";
  const event: HookEvent = baseEvent(kind, native, session, p);
  if (kind === "prompt" && typeof p.prompt === "string") event.prompt = p.prompt;
  if (kind === "tool_after" || kind === "tool_failed" || kind === "tool_denied") {
    const name = text(p.tool_name) ?? "unknown";
    const callId = text(p.call_id);
    const duration = millis(p.duration_ms);
    // opencode names an MCP tool `<server>_<tool>`.
    event.tool = { name, aop_mcp: name.startsWith(`${AOP_SERVER}_`), ...(callId ? { call_id: callId } : {}), ...(p.tool_input !== undefined ? { input: p.tool_input } : {}), ...(duration !== undefined ? { duration_ms: duration } : {}) };
  }
  const exit = p.exit_status;
  if (kind === "tool_after" && Number.isSafeInteger(exit)) return { event: withCommandOutcome(event, { failed: exit !== 0, exit_status: exit as number }) };
  return { event };
}
