// Opens the transport a command asked for (--transport) and turns error envelopes into CLI errors.
import type { ToolClient } from "../../app/clients/tool-client.js";
import type { ToolName, ToolResult } from "../../catalog/tool-types.js";
import { WorkspaceLayout } from "../../store/layout.js";
import type { CliContext } from "./context.js";
import { identityFromGlobals, unwrap } from "./call-result.js";
import { usageError } from "./run-command.js";

export { identityFromGlobals, unwrap };

export async function openClient(ctx: CliContext): Promise<ToolClient> {
  const transport = ctx.globals.transport ?? "inprocess";
  const identity = identityFromGlobals(ctx);
  if (transport === "mcp") {
    const { mcpClient } = await import("../../app/clients/mcp.js");
    const custom = ctx.layout.checkpointsDir !== new WorkspaceLayout(ctx.layout.root).checkpointsDir;
    return mcpClient({ root: ctx.layout.root, identity, ...(custom ? { checkpointsDir: ctx.layout.checkpointsDir } : {}) });
  }
  if (transport !== "inprocess") throw usageError(`--transport must be inprocess or mcp (got '${transport}')`);
  const { createRuntime } = await import("../../app/create-runtime.js");
  const { inProcessClient } = await import("../../app/clients/in-process.js");
  return inProcessClient(await createRuntime({ layout: ctx.layout, clock: ctx.clock, identity, warn: (m) => ctx.err(`warning: ${m}`) }));
}

export type CallOptions = { onProgress?: (event: unknown) => void; signal?: AbortSignal };
/** Calls a tool by name; its data is typed by the tool's output schema. */
export type Call = <N extends ToolName>(name: N, args: Record<string, unknown>, options?: CallOptions) => Promise<ToolResult<N>>;

/** Run `fn` with one open client (one MCP server process for several calls), then close it. */
export async function withClient<T>(ctx: CliContext, fn: (call: Call) => Promise<T>): Promise<T> {
  const client = await openClient(ctx);
  try {
    return await fn(async <N extends ToolName>(name: N, args: Record<string, unknown>, options?: CallOptions) => unwrap<ToolResult<N>>((await client.callTool(name, args, options)).envelope));
  } finally {
    await client.close();
  }
}

/** Open a client, call one tool, close, and return its data (or throw its error). */
export async function callTool<N extends ToolName>(ctx: CliContext, name: N, args: Record<string, unknown>): Promise<ToolResult<N>> {
  return withClient(ctx, (call) => call(name, args));
}

export function newOperationId(): string {
  return `op-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Adds `operation_id` (given, or fresh) to a mutating call's arguments. */
export function withOperationId(args: Record<string, unknown>, given: unknown): Record<string, unknown> {
  // "" never reaches here (runBody refuses empty flags); anything else is the caller's id, checked by the pipeline.
  return { ...args, operation_id: typeof given === "string" ? given : newOperationId() };
}
