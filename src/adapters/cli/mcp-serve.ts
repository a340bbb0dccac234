// `aop mcp` once its flags are parsed: the MCP server's lifecycle (adapters/mcp/lifecycle.ts) with the
// workspace, clock, identity and version the command line gives. Its modules load when it runs, not
// with the module (commander's route imports it for MCP_FLAGS).
import type { CliContext } from "./context.js";
import type { FlagSpec } from "./flags.js";

/** The flags of `aop mcp` besides the program's own. */
export const MCP_FLAGS: readonly FlagSpec[] = [{ flag: "checkpoints-dir", value: "<path>", description: "the checkpoints folder the checkpoint.* tools serve (default: <root>/.checkpoints)" }];

export async function serveMcpCommand(ctx: CliContext): Promise<number | void> {
  const [{ runMcpServer }, { identityFromGlobals }, { readPackageVersion }] = await Promise.all([import("../mcp/lifecycle.js"), import("./call-result.js"), import("./version.js")]);
  return runMcpServer({ layout: ctx.layout, clock: ctx.clock, identity: identityFromGlobals(ctx), version: readPackageVersion(), log: (line) => ctx.err(line) });
}
