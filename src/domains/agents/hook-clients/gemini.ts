// Gemini CLI hook payloads (`hooks` in .gemini/settings.json; captured from Gemini CLI 0.61 in
// test/adapters/hooks/payloads/gemini/) onto the hook event model. Gemini gives no call id: aop's
// own MCP calls are known by `mcp_context.server_name` (or the `mcp_aop_` name Gemini gives them).
// Pure.
import { AOP_SERVER, baseEvent, text, type HookEvent, type HookEventKind, type Mapped, type Payload } from "../hook-model.js";

export { geminiShapes } from "./shapes.js";

const KINDS: Record<string, HookEventKind> = {
  SessionStart: "session_start",
  BeforeAgent: "prompt",
  BeforeTool: "tool_before",
  AfterTool: "tool_after",
  PreCompress: "compact",
  AfterAgent: "stop",
  SessionEnd: "session_end",
};

/** Gemini's ToolErrorType values that say the call was refused rather than failed. */
const DENIED = new Set(["permission_denied", "policy_violation"]);

function toolError(response: unknown): string | undefined {
  if (response === null || typeof response !== "object") return undefined;
  const error = (response as { error?: unknown }).error;
  if (error === null || error === undefined) return undefined;
  const type = error && typeof error === "object" ? (error as { type?: unknown }).type : undefined;
  return typeof type === "string" ? type : "error";
}

function isAopMcp(p: Payload, name: string): boolean {
  const ctx = p.mcp_context;
  if (ctx && typeof ctx === "object" && (ctx as { server_name?: unknown }).server_name === AOP_SERVER) return true;
  return name.startsWith(`mcp_${AOP_SERVER}_`);
}

export function mapGemini(p: Payload): Mapped {
  const native = text(p.hook_event_name);
  const session = text(p.session_id);
  if (!native) return { ignored: "the payload has no hook_event_name" };
  if (!session) return { ignored: `${native}: the payload has no session_id` };
  let kind = KINDS[native];
  if (!kind) return { ignored: `${native}: aop does not act on this Gemini CLI event` };
  // Gemini 0.61 fires PreCompress "auto" before every turn's threshold check, compacting or not:
  // only a manual one (/compress) is known to compact.
  if (native === "PreCompress" && p.trigger !== "manual") return { ignored: "PreCompress auto: Gemini CLI sends it on every turn", quiet: true };
  const error = kind === "tool_after" ? toolError(p.tool_response) : undefined;
  if (error) kind = DENIED.has(error) ? "tool_denied" : "tool_failed";
  const event: HookEvent = baseEvent(kind, native, session, p, p.source ?? p.trigger ?? p.reason);
  if (kind === "prompt" && typeof p.prompt === "string") event.prompt = p.prompt;
  if (kind === "stop") event.stop_hook_active = p.stop_hook_active === true;
  if (native === "BeforeTool" || native === "AfterTool") {
    const name = text(p.tool_name) ?? "unknown";
    event.tool = { name, aop_mcp: isAopMcp(p, name), ...(p.tool_input !== undefined ? { input: p.tool_input } : {}) };
  }
  return { event };
}
