// Opens the transport a command asked for (--transport) and turns error envelopes into CLI errors.
import type { ToolClient } from "../../../app/clients/tool-client.js";
import type { ToolName, ToolResult } from "../../../catalog/tool-types.js";
import { WorkspaceLayout } from "../../../store/layout.js";
import type { CliContext } from "../program/context.js";
import { identityFromGlobals } from "./call-result.js";
import { type Call, openInProcessClient, withOpenClient, withOperationId } from "./client-session.js";
import { usageError } from "../program/run-command.js";

export { withOperationId };
export type { Call };

export async function openClient(ctx: CliContext): Promise<ToolClient> {
  const transport = ctx.globals.transport ?? "inprocess";
  const identity = identityFromGlobals(ctx);
  if (transport === "mcp") {
    const { mcpClient } = await import("../../../app/clients/mcp.js");
    const custom = ctx.layout.checkpointsDir !== new WorkspaceLayout(ctx.layout.root).checkpointsDir;
    return mcpClient({ root: ctx.layout.root, identity, ...(custom ? { checkpointsDir: ctx.layout.checkpointsDir } : {}) });
  }
  if (transport !== "inprocess") throw usageError(`--transport must be inprocess or mcp (got '${transport}')`);
  return openInProcessClient(ctx, identity);
}

/** Run `fn` with one open client (one MCP server process for several calls), then close it. */
export async function withClient<T>(ctx: CliContext, fn: (call: Call) => Promise<T>): Promise<T> {
  return withOpenClient(await openClient(ctx), fn);
}

/** Open a client, call one tool, close, and return its data (or throw its error). */
export async function callTool<N extends ToolName>(ctx: CliContext, name: N, args: Record<string, unknown>): Promise<ToolResult<N>> {
  return withClient(ctx, (call) => call(name, args));
}
