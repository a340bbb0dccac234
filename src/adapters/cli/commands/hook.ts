// aop hook claude: the Claude Code hook handler (installed by `aop integrate claude --write`).
import type { Command } from "commander";
import { examples } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  const hook = program.command("hook").description(summary).addHelpText("after", examples("aop integrate claude --write   # installs the hooks"));
  hook
    .command("claude")
    .description("read one Claude Code hook event on stdin: record it in the session's timeline, print what the event accepts; always exits 0")
    .addHelpText(
      "after",
      "\nEvents (run claude-<session_id>): SessionStart → the orientation as hookSpecificOutput.additionalContext;\nPreCompact → plain-text compaction instructions (or nothing); Stop → per hooks.claude.stop_reminder\n(message: systemMessage, block: decision block once per session, off); PostToolUse / PostToolUseFailure →\none entry (aop's own MCP calls: the server's entry); UserPromptSubmit (prompt hash only), SubagentStart /\nSubagentStop, SessionEnd → markers. Outside a workspace nothing is recorded. Problems go to .aop/runtime/hooks.log.\n" +
        examples(`echo '{"hook_event_name":"SessionStart","session_id":"s1","source":"startup","cwd":"'$PWD'"}' | aop hook claude`),
    )
    .action(async (_opts: unknown, command: Command) => {
      const { hookMain } = await import("../../hooks/hook-main.js");
      const globals = command.optsWithGlobals() as { root?: string };
      await hookMain(globals.root ? { root: globals.root } : {});
    });
}
