// aop mcp: serve every catalog tool, the orientation resources and the prompts over MCP stdio (for
// Claude Code, Codex, Cursor, ...) until the client goes away or a signal comes — or, with --http, over
// Streamable HTTP until a signal comes (docs/mcp.md).
import type { Command } from "commander";
import type { CliContext } from "../program/context.js";
import { addFlags, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";

const MCP_FLAGS = [
  { flag: "checkpoints-dir", value: "<path>", description: "the checkpoints folder the checkpoint.* tools serve (default: <root>/.checkpoints)" },
  { flag: "http", value: "<[host:]port>", description: "serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (host default 127.0.0.1; port 0 picks a free one)" },
  { flag: "token-file", value: "<path>", description: "a file holding the bearer token HTTP clients must send (or AOP_MCP_TOKEN); required off loopback" },
] as const satisfies readonly FlagSpec[];

/** A token file holds one line; anything larger is not a token. */
const MAX_TOKEN_BYTES = 4096;

export function register(program: Command, summary: string): void {
  addFlags(program.command("mcp").description(summary), MCP_FLAGS)
    .addHelpText(
      "after",
      "\nIdentity for every call: --actor, --session-id, --run-id (or AOP_ACTOR, AOP_SESSION_ID, AOP_RUN_ID).\nOn stdio, stdout carries only JSON-RPC; logs go to stderr. With --http the URL is printed on stderr.\n" +
        examples("aop mcp --root /path/to/workspace", "aop mcp --actor builder --session-id sess-42", "aop mcp --http 8765", "AOP_MCP_TOKEN=... aop mcp --http 0.0.0.0:8765"),
    )
    .action(runCommand(serveMcp, { checkpointsDirOption: "checkpointsDir" }));
}

async function bearerToken(opts: FlagValues<typeof MCP_FLAGS>): Promise<string | undefined> {
  if (opts.tokenFile === undefined) return process.env.AOP_MCP_TOKEN?.trim() || undefined;
  const { readTextBounded } = await import("../../../store/read-text-bounded.js");
  const read = readTextBounded(opts.tokenFile, MAX_TOKEN_BYTES);
  const token = read.status === "ok" && !read.truncated && !read.binary ? read.text.trim() : "";
  if (token === "" || /\s/.test(token)) throw usageError(`--token-file ${opts.tokenFile}: not a readable token (one line of at most ${MAX_TOKEN_BYTES} bytes, no spaces)`);
  return token;
}

async function serveMcp(ctx: CliContext, opts: FlagValues<typeof MCP_FLAGS>): Promise<number | void> {
  if (opts.tokenFile !== undefined && opts.http === undefined) throw usageError("--token-file is for --http: give both", "aop mcp --http 0.0.0.0:8765 --token-file ~/.aop-mcp-token");
  const [{ runMcpServer }, { identityFromGlobals }, { readPackageVersion }] = await Promise.all([import("../../mcp/lifecycle.js"), import("../sessions/call-result.js"), import("../program/version.js")]);
  const token = opts.http !== undefined ? await bearerToken(opts) : undefined;
  return runMcpServer({
    layout: ctx.layout,
    clock: ctx.clock,
    identity: identityFromGlobals(ctx),
    version: readPackageVersion(),
    log: (line) => ctx.err(line),
    ...(opts.http !== undefined ? { http: { listen: opts.http, ...(token ? { token } : {}) } } : {}),
  });
}
