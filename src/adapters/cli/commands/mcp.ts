// aop mcp: serve every catalog tool, the orientation resources and the prompts over MCP stdio (for
// Claude Code, Codex, Cursor, ...) until the client goes away or a signal comes.
import type { Command } from "commander";
import type { CliContext } from "../program/context.js";
import { addFlags, type FlagSpec } from "../flags/flags.js";
import { examples, runCommand } from "../program/run-command.js";

const MCP_FLAGS = [{ flag: "checkpoints-dir", value: "<path>", description: "the checkpoints folder the checkpoint.* tools serve (default: <root>/.checkpoints)" }] as const satisfies readonly FlagSpec[];

export function register(program: Command, summary: string): void {
  addFlags(program.command("mcp").description(summary), MCP_FLAGS)
    .addHelpText(
      "after",
      "\nIdentity for every call: --actor, --session-id, --run-id (or AOP_ACTOR, AOP_SESSION_ID, AOP_RUN_ID).\nStdout carries only JSON-RPC; logs go to stderr.\n" +
        examples("aop mcp --root /path/to/workspace", "aop mcp --actor builder --session-id sess-42"),
    )
    .action(runCommand(serveMcp, { checkpointsDirOption: "checkpointsDir" }));
}

async function serveMcp(ctx: CliContext): Promise<number | void> {
  const [{ runMcpServer }, { identityFromGlobals }, { readPackageVersion }] = await Promise.all([import("../../mcp/lifecycle.js"), import("../sessions/call-result.js"), import("../program/version.js")]);
  return runMcpServer({ layout: ctx.layout, clock: ctx.clock, identity: identityFromGlobals(ctx), version: readPackageVersion(), log: (line) => ctx.err(line) });
}
