// aop hook claude|codex|gemini|cursor|opencode|openclaw: the hook handler each client runs (installed by
// `aop integrate <client>`). bin/aop.js routes the bare `aop hook <client>` to the hook's own bundle;
// this command serves the same with global flags (--root).
import type { Command } from "commander";
import { examples } from "../program/run-command.js";

const CLAUDE_HELP =
  "\nEvents (run claude-<session_id>): SessionStart → the orientation as hookSpecificOutput.additionalContext;\nPreCompact → plain-text compaction instructions (or nothing); Stop → per hooks.claude.stop_reminder\n(message: systemMessage, block: decision block once per session, off); PostToolUse / PostToolUseFailure →\none entry (aop's own MCP calls: the server's entry); UserPromptSubmit (prompt hash only), SubagentStart /\nSubagentStop, SessionEnd → markers. Outside a workspace nothing is recorded. Problems go to .aop/runtime/hooks.log.\n";

const OTHERS: Record<string, { what: string; example: string }> = {
  codex: {
    what: "Codex (.codex/hooks.json): SessionStart → the orientation as additionalContext; PostToolUse → one entry (an MCP result with isError: an error); Stop → the reminder (systemMessage, or decision block); UserPromptSubmit, PreCompact, SubagentStart/Stop, SessionEnd → markers. Run codex-<session_id>.",
    example: `echo '{"hook_event_name":"SessionStart","session_id":"s1","source":"startup","cwd":"'$PWD'"}' | aop hook codex`,
  },
  gemini: {
    what: "Gemini CLI (.gemini/settings.json hooks): SessionStart → the orientation as additionalContext; AfterTool → one entry (tool_response.error: an error, permission_denied/policy_violation: refused); AfterAgent → the reminder (systemMessage, or decision deny); BeforeAgent, PreCompress, SessionEnd → markers. Run gemini-<session_id>.",
    example: `echo '{"hook_event_name":"SessionStart","session_id":"s1","source":"startup","cwd":"'$PWD'"}' | aop hook gemini`,
  },
  cursor: {
    what: "Cursor (.cursor/hooks.json): sessionStart → the orientation as additional_context; postToolUse / postToolUseFailure → one entry (failure_type permission_denied: refused); stop → followup_message in block mode; beforeSubmitPrompt, preCompact, subagentStart/Stop, sessionEnd → markers. Run cursor-<conversation_id>.",
    example: `echo '{"hook_event_name":"sessionStart","conversation_id":"c1","workspace_roots":["'$PWD'"]}' | aop hook cursor`,
  },
  opencode: {
    what: "opencode (aop's plugin in .opencode/plugin/): session.created → {context} the plugin adds to the system prompt; tool.completed / tool.error → one entry per call id; session.idle → {reminder}; chat.message, session.compacted, session.deleted → markers. Run opencode-<session id>.",
    example: `echo '{"hook_event_name":"session.created","session_id":"ses_1","cwd":"'$PWD'"}' | aop hook opencode`,
  },
  openclaw: {
    what: "OpenClaw (aop's plugin in .openclaw/extensions/aop/): session_start → {context} the plugin returns as prependSystemContext; after_tool_call → one entry (error: tool_error); before_agent_finalize → {reminder} (block: one more model pass); before_prompt_build, before_compaction, subagent_spawned/ended, session_end → markers. Run openclaw-<session id>.",
    example: `echo '{"hook_event_name":"session_start","session_id":"s1","cwd":"'$PWD'"}' | aop hook openclaw`,
  },
};

export function register(program: Command, summary: string): void {
  const hook = program.command("hook").description(summary).addHelpText("after", examples("aop integrate claude --write   # installs the hooks", "aop integrate codex --write"));
  const run = async (client: string, command: Command) => {
    const { hookMain } = await import("../../hooks/hook-main.js");
    const globals = command.optsWithGlobals() as { root?: string };
    await hookMain({ client: client as "claude", ...(globals.root ? { root: globals.root } : {}) });
  };
  hook
    .command("claude")
    .description("read one Claude Code hook event on stdin: record it in the session's timeline, print what the event accepts; always exits 0")
    .addHelpText("after", CLAUDE_HELP + examples(`echo '{"hook_event_name":"SessionStart","session_id":"s1","source":"startup","cwd":"'$PWD'"}' | aop hook claude`))
    .action(async (_opts: unknown, command: Command) => run("claude", command));
  for (const [client, help] of Object.entries(OTHERS)) {
    hook
      .command(client)
      .description(`read one ${client} hook event on stdin: record it in the session's timeline, print what the event accepts; always exits 0`)
      .addHelpText("after", `\n${help.what}\nUnknown events are ignored with a line in .aop/runtime/hooks.log.\n` + examples(help.example))
      .action(async (_opts: unknown, command: Command) => run(client, command));
  }
}
