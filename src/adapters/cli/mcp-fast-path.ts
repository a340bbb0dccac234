// A commander-free route for a plain `aop mcp` (what agents' MCP configurations start): the program's
// flags anywhere, --checkpoints-dir after `mcp`, parsed from the same declarations commander builds
// its options from. The body is the one commander runs (mcp-serve.ts). Anything else (help, unknown or
// misplaced flags, --json, another transport) returns false and goes through the full program, which
// words the mistake. bin/aop.js runs it from a one-file bundle (scripts/bundle-bins.mjs).
import { AOP_GLOBAL_FLAGS } from "./command-registry.js";
import type { GlobalOptions } from "./context.js";
import { parseRouteFlags } from "./flags.js";
import { MCP_FLAGS, serveMcpCommand } from "./mcp-serve.js";
import { runBody } from "./run-command.js";

/** The options of a plain `aop mcp`, or null when the full program must handle argv. */
export function parseFastMcp(argv: readonly string[]): (Record<string, unknown> & GlobalOptions) | null {
  const opts = parseRouteFlags(argv, ["mcp"], AOP_GLOBAL_FLAGS, MCP_FLAGS);
  return opts === undefined || opts.json !== undefined ? null : opts;
}

/** Serves MCP when argv is a plain `aop mcp`; false when the full program must handle it. */
export async function tryFastMcp(argv: readonly string[]): Promise<boolean> {
  const opts = parseFastMcp(argv);
  if (!opts) return false;
  await runBody(serveMcpCommand, opts, [], { checkpointsDirOption: "checkpointsDir" });
  return true;
}
