// aop mcp: serve every catalog tool over MCP stdio (for Claude Code, Codex, Cursor, ...).
import type { Command } from "commander";
import { addFlags } from "../flags.js";
import { MCP_FLAGS } from "../mcp-serve.js";
import { examples, runCommand } from "../run-command.js";

export function register(program: Command, summary: string): void {
  const command = program.command("mcp").description(summary);
  addFlags(command, MCP_FLAGS)
    .addHelpText(
      "after",
      "\nIdentity for every call: --actor, --session-id, --run-id (or AOP_ACTOR, AOP_SESSION_ID, AOP_RUN_ID).\nStdout carries only JSON-RPC; logs go to stderr.\n" +
        examples("aop mcp --root /path/to/workspace", "aop mcp --actor builder --session-id sess-42"),
    )
    .action(runCommand(async (ctx) => (await import("../mcp-serve.js")).serveMcpCommand(ctx), { checkpointsDirOption: "checkpointsDir" }));
}
