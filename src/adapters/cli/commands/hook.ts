// aop hook claude: the Claude Code hook handler (installed by `aop integrate claude --write`).
import type { Command } from "commander";
import { examples } from "../run-command.js";

export function register(program: Command, summary: string): void {
  const hook = program.command("hook").description(summary).addHelpText("after", examples("aop integrate claude --write   # installs the hooks"));
  hook
    .command("claude")
    .description("read one Claude Code hook event on stdin: record tool calls, print session context, remind on stop; always exits 0")
    .addHelpText(
      "after",
      "\nEvents: PostToolUse / PostToolUseFailure → one timeline entry in run claude-<session_id>;\nSessionStart / PreCompact → JSON with hookSpecificOutput.additionalContext on stdout;\nStop → a reminder on stderr when memory/CURRENT_STATE.md is older than the transcript.\nProblems are logged to .aop/runtime/hooks.log.\n" +
        examples(`echo '{"hook_event_name":"SessionStart","session_id":"s1","source":"startup","cwd":"'$PWD'"}' | aop hook claude`),
    )
    .action(async (_opts: unknown, command: Command) => {
      const { hookMain } = await import("../../hooks/hook-main.js");
      const globals = command.optsWithGlobals() as { root?: string };
      await hookMain(globals.root ? { root: globals.root } : {});
    });
}
