// Each client's payloads onto the one hook event model (pure), and the shapes aop prints for each.
// Codex and Gemini CLI payloads were captured from the real clients (test/adapters/hooks/payloads/);
// Cursor's are written from its documented schema (payloads/cursor/payloads.ts says where).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codexShapes, mapCodex } from "../../../src/domains/agents/hook-clients/codex.js";
import { mapCursor } from "../../../src/domains/agents/hook-clients/cursor.js";
import { mapGemini } from "../../../src/domains/agents/hook-clients/gemini.js";
import { mapOpencode } from "../../../src/domains/agents/hook-clients/opencode.js";
import { cursorShapes, geminiShapes, opencodeShapes } from "../../../src/domains/agents/hook-clients/shapes.js";
import { entryForToolCall, markerEntryFor, runIdFor, type HookEvent, type Mapped } from "../../../src/domains/agents/hook-model.js";
import { MAX_HOOK_OUTPUT_CHARS } from "../../../src/domains/agents/hook-output.js";
import { CURSOR_PAYLOADS } from "../../adapters/hooks/payloads/cursor/payloads.js";
import { REPO_ROOT } from "../../helpers/paths.js";

const payload = (client: string, name: string) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "test/adapters/hooks/payloads", client, `${name}.json`), "utf8")) as Record<string, unknown>;
const event = (m: Mapped): HookEvent => {
  if (!("event" in m)) throw new Error(`ignored: ${m.ignored}`);
  return m.event;
};
const AOP_TOOLS = new Set(["feature_init", "gates_run"]);

describe("Codex payloads (captured from Codex 0.171)", () => {
  it("maps each event it acts on, with the session, the call id and the tool", () => {
    expect(event(mapCodex(payload("codex", "SessionStart")))).toMatchObject({ kind: "session_start", native: "SessionStart", detail: "startup", cwd: "/home/user/project" });
    expect(event(mapCodex(payload("codex", "UserPromptSubmit")))).toMatchObject({ kind: "prompt", prompt: expect.stringContaining("@@tool") });
    expect(event(mapCodex(payload("codex", "PostToolUse")))).toMatchObject({ kind: "tool_after", tool: { name: "Bash", call_id: "call_fake_1", aop_mcp: false, input: { command: "echo hi" } } });
    expect(event(mapCodex(payload("codex", "Stop")))).toMatchObject({ kind: "stop", stop_hook_active: false, transcript_path: expect.stringMatching(/rollout-.*\.jsonl$/) });
  });

  it("knows aop's own MCP calls by their mcp__aop__ name, and an MCP isError result as a failure", () => {
    const mcp = event(mapCodex(payload("codex", "PostToolUse-mcp")));
    expect(mcp.tool).toMatchObject({ name: "mcp__aop__feature_init", aop_mcp: true });
    const other = { ...payload("codex", "PostToolUse-mcp"), tool_name: "mcp__github__create_issue", tool_response: { content: [], isError: true } };
    expect(event(mapCodex(other))).toMatchObject({ kind: "tool_failed", tool: { aop_mcp: false } });
  });

  it("ignores what it does not act on, and says why", () => {
    expect(mapCodex({ ...payload("codex", "Stop"), hook_event_name: "PermissionRequest" })).toEqual({ ignored: expect.stringMatching(/PermissionRequest: aop does not act/) });
    expect(mapCodex({ hook_event_name: "Stop" })).toEqual({ ignored: "Stop: the payload has no session_id" });
  });
});

describe("Gemini CLI payloads (captured from Gemini CLI 0.61)", () => {
  it("maps each event it acts on", () => {
    expect(event(mapGemini(payload("gemini", "SessionStart")))).toMatchObject({ kind: "session_start", detail: "startup" });
    expect(event(mapGemini(payload("gemini", "BeforeAgent")))).toMatchObject({ kind: "prompt" });
    expect(event(mapGemini(payload("gemini", "AfterTool")))).toMatchObject({ kind: "tool_after", tool: { name: "run_shell_command", aop_mcp: false } });
    expect(event(mapGemini(payload("gemini", "AfterAgent")))).toMatchObject({ kind: "stop", stop_hook_active: false });
    expect(event(mapGemini(payload("gemini", "SessionEnd")))).toMatchObject({ kind: "session_end", detail: "exit" });
  });

  it("knows aop's own MCP calls by mcp_context; an error is a failure, a permission or policy refusal a denial", () => {
    expect(event(mapGemini(payload("gemini", "AfterTool-mcp"))).tool).toMatchObject({ name: "mcp_aop_feature_init", aop_mcp: true });
    const failed = { ...payload("gemini", "AfterTool"), tool_response: { llmContent: "x", returnDisplay: "x", error: { type: "file_not_found", message: "no such file" } } };
    expect(event(mapGemini(failed)).kind).toBe("tool_failed");
    const refused = { ...failed, tool_response: { error: { type: "policy_violation", message: "refused" } } };
    expect(event(mapGemini(refused)).kind).toBe("tool_denied");
  });

  it("drops the PreCompress 'auto' Gemini sends before every turn quietly; keeps a manual one", () => {
    expect(mapGemini(payload("gemini", "PreCompress"))).toMatchObject({ quiet: true });
    expect(event(mapGemini({ ...payload("gemini", "PreCompress"), trigger: "manual" }))).toMatchObject({ kind: "compact", detail: "manual" });
    expect(mapGemini({ ...payload("gemini", "SessionStart"), hook_event_name: "BeforeModel" })).toEqual({ ignored: expect.stringMatching(/BeforeModel/) });
  });
});

describe("Cursor payloads (from Cursor's documented schema)", () => {
  const map = (name: string) => mapCursor(CURSOR_PAYLOADS[name]!, AOP_TOOLS);
  it("maps each event it acts on, the session being conversation_id", () => {
    expect(event(map("sessionStart"))).toMatchObject({ kind: "session_start", session_id: "668320d2-2fd8-4888-b33c-2a466fec86e7", cwd: "/home/user/project" });
    expect(event(map("postToolUse"))).toMatchObject({ kind: "tool_after", tool: { name: "Shell", call_id: "abc123", duration_ms: 5432, aop_mcp: false } });
    expect(event(map("postToolUseFailure"))).toMatchObject({ kind: "tool_failed" });
    expect(event(map("postToolUseFailure-denied"))).toMatchObject({ kind: "tool_denied" });
    expect(event(map("subagentStart"))).toMatchObject({ kind: "subagent_start", agent_id: "sub-1", agent_type: "explore" });
    expect(event(map("preCompact"))).toMatchObject({ kind: "compact", detail: "auto" });
    expect(event(map("stop"))).toMatchObject({ kind: "stop", stop_hook_active: false, detail: "completed" });
    expect(event(map("stop-followup"))).toMatchObject({ stop_hook_active: true });
    expect(event(map("sessionEnd"))).toMatchObject({ kind: "session_end", detail: "completed" });
  });

  it("knows aop's MCP tools by name (MCP:<tool>), not another server's tool of another name", () => {
    expect(event(map("postToolUse-mcp")).tool?.aop_mcp).toBe(true);
    expect(event(mapCursor({ ...CURSOR_PAYLOADS["postToolUse-mcp"]!, tool_name: "MCP:create_issue" }, AOP_TOOLS)).tool?.aop_mcp).toBe(false);
  });

  it("ignores the per-kind events (the generic tool events already record every call)", () => {
    expect(map("afterShellExecution")).toEqual({ ignored: expect.stringMatching(/afterShellExecution/) });
  });
});

describe("opencode events (aop's plugin's payloads)", () => {
  const base = { session_id: "ses_1", cwd: "/home/user/project" };
  it("maps each event, a tool part once by its call id, a refused permission as a denial", () => {
    expect(event(mapOpencode({ ...base, hook_event_name: "session.created" }))).toMatchObject({ kind: "session_start" });
    expect(event(mapOpencode({ ...base, hook_event_name: "tool.completed", tool_name: "bash", call_id: "c1", duration_ms: 12 }))).toMatchObject({ kind: "tool_after", tool: { name: "bash", call_id: "c1", duration_ms: 12, aop_mcp: false } });
    expect(event(mapOpencode({ ...base, hook_event_name: "tool.error", tool_name: "bash", call_id: "c2" })).kind).toBe("tool_failed");
    expect(event(mapOpencode({ ...base, hook_event_name: "tool.error", tool_name: "bash", call_id: "c3", denied: true })).kind).toBe("tool_denied");
    expect(event(mapOpencode({ ...base, hook_event_name: "tool.completed", tool_name: "aop_feature_init", call_id: "c4" })).tool?.aop_mcp).toBe(true);
    expect(event(mapOpencode({ ...base, hook_event_name: "session.idle" })).kind).toBe("stop");
  });

  it("a bash call opencode reports completed is failed when its exit status (the tool's metadata.exit, captured from opencode 1.18.33) is not 0", () => {
    const sent = (name: string) => {
      const part = payload("opencode", name) as { tool: string; callID: string; state: { metadata: { exit: unknown } } };
      // What aop's plugin sends for the part (opencode-plugin.ts).
      return { ...base, hook_event_name: "tool.completed", tool_name: part.tool, call_id: part.callID, exit_status: part.state.metadata.exit };
    };
    const failed = event(mapOpencode(sent("tool-part-bash-exit-3")));
    expect(failed).toMatchObject({ kind: "tool_failed", tool: { name: "bash", exit_status: 3 } });
    expect(entryForToolCall("opencode", failed, "opencode-ses_1", 0)).toMatchObject({ result: "error", error_code: "command_exit_nonzero", ext: { client: "opencode", exit_status: 3 } });
    const fine = event(mapOpencode(sent("tool-part-bash-exit-0")));
    expect(fine).toMatchObject({ kind: "tool_after", tool: { exit_status: 0 } });
    expect(entryForToolCall("opencode", fine, "opencode-ses_1", 0)).toMatchObject({ result: "ok", error_code: null, ext: { client: "opencode", exit_status: 0 } });
    // No exit status (another tool, or none given): as before.
    for (const exit of [undefined, null, "3", 2.5]) expect(event(mapOpencode({ ...sent("tool-part-bash-exit-3"), exit_status: exit })).kind).toBe("tool_after");
  });
});

describe("entries and shapes", () => {
  it("a failed and a denied call are errors; a call keeps the client's call id and the client as transport", () => {
    const failed = event(mapCursor(CURSOR_PAYLOADS.postToolUseFailure!, AOP_TOOLS));
    const runId = runIdFor("cursor", failed.session_id)!;
    expect(entryForToolCall("cursor", failed, runId, 0)).toMatchObject({ result: "error", error_code: "tool_error", operation_id: "ghi789", transport: "hook:cursor", ext: { client: "cursor" }, mutating: true, latency_ms: 30000, run_id: "cursor-668320d2-2fd8-4888-b33c-2a466fec86e7" });
    const denied = event(mapCursor(CURSOR_PAYLOADS["postToolUseFailure-denied"]!, AOP_TOOLS));
    expect(entryForToolCall("cursor", denied, runId, 0)).toMatchObject({ result: "error", error_code: "tool_denied" });
    const prompt = markerEntryFor("codex", event(mapCodex(payload("codex", "UserPromptSubmit"))), "codex-x", 0);
    expect(prompt).toMatchObject({ tool_name: "session.prompt", marker: "UserPromptSubmit", ext: { client: "codex" }, request_hash: expect.stringMatching(/^sha256:/) });
    expect(JSON.stringify(prompt)).not.toContain("@@tool");
  });

  it("each client's session-start and stop shapes carry the text, cut to the output cap", () => {
    expect(JSON.parse(codexShapes.sessionStart("hello"))).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hello" } });
    expect(JSON.parse(codexShapes.stop({ mode: "block", text: "r" }))).toEqual({ decision: "block", reason: "r" });
    expect(JSON.parse(geminiShapes.stop({ mode: "block", text: "r" }))).toEqual({ decision: "deny", reason: "r" });
    expect(JSON.parse(geminiShapes.stop({ mode: "message", text: "r" }))).toEqual({ systemMessage: "r" });
    expect(JSON.parse(cursorShapes.sessionStart("hello"))).toEqual({ additional_context: "hello" });
    expect(JSON.parse(cursorShapes.stop({ mode: "block", text: "r" }))).toEqual({ followup_message: "r" });
    expect(cursorShapes.stop({ mode: "message", text: "r" })).toBe("");
    expect(JSON.parse(opencodeShapes.stop({ mode: "message", text: "r" }))).toEqual({ reminder: "r", mode: "message" });
    const long = cursorShapes.sessionStart("x".repeat(50_000));
    expect(long.length).toBeLessThanOrEqual(MAX_HOOK_OUTPUT_CHARS);
    expect(JSON.parse(long).additional_context).toMatch(/x…$/);
  });
});
