// A commander-free route for a plain `aop mcp` (what agents' MCP configurations start): the program's
// flags anywhere, --checkpoints-dir after `mcp`, parsed from the same declarations commander builds
// its options from. The body is the one commander runs (mcp-serve.ts). Anything else (help, unknown or
// misplaced flags, --json, another transport) returns false and goes through the full program, which
// words the mistake. bin/aop.js runs it from a one-file bundle (scripts/bundle-bins.mjs).
import { AOP_GLOBAL_FLAGS } from "./command-registry.js";
import type { GlobalOptions } from "./context.js";
import { optionKey, parseFlags } from "./flags.js";
import { MCP_FLAGS, serveMcpCommand } from "./mcp-serve.js";
import { runBody } from "./run-command.js";

/** The options of a plain `aop mcp`, or null when the full program must handle argv. */
export function parseFastMcp(argv: readonly string[]): (Record<string, unknown> & GlobalOptions) | null {
  const line = parseFlags(argv, [...AOP_GLOBAL_FLAGS, ...MCP_FLAGS], true);
  if (!line || line.positionals.length !== 1 || line.positionals[0] !== "mcp") return null;
  const command = line.positionalAt[0]!;
  if (MCP_FLAGS.some((f) => (line.at.get(optionKey(f.flag)) ?? Infinity) < command)) return null;
  if (line.opts.json !== undefined || (line.opts.transport !== undefined && line.opts.transport !== "inprocess")) return null;
  return line.opts;
}

/** Serves MCP when argv is a plain `aop mcp`; false when the full program must handle it. */
export async function tryFastMcp(argv: readonly string[]): Promise<boolean> {
  const opts = parseFastMcp(argv);
  if (!opts) return false;
  await runBody(serveMcpCommand, opts, [], { checkpointsDirOption: "checkpointsDir" });
  return true;
}
