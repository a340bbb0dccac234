// A command's in-process tool client and how a command calls tools through any client. tool-session.ts
// adds the MCP transport on top (loaded only for `--transport mcp`).
import type { ToolClient } from "../../../app/clients/tool-client.js";
import type { ToolName, ToolResult } from "../../../catalog/tool-types.js";
import type { CliContext } from "../program/context.js";
import { identityFromGlobals, unwrap } from "./call-result.js";

type CallOptions = { onProgress?: (event: unknown) => void; signal?: AbortSignal };
/** Calls a tool by name; its data is typed by the tool's output schema. */
export type Call = <N extends ToolName>(name: N, args: Record<string, unknown>, options?: CallOptions) => Promise<ToolResult<N>>;

export async function openInProcessClient(ctx: CliContext, identity = identityFromGlobals(ctx)): Promise<ToolClient> {
  const { createRuntime } = await import("../../../app/create-runtime.js");
  const { inProcessClient } = await import("../../../app/clients/in-process.js");
  return inProcessClient(await createRuntime({ layout: ctx.layout, clock: ctx.clock, identity, warn: (m) => ctx.err(`warning: ${m}`) }));
}

/** Run `fn` with one open client (one MCP server process for several calls), then close it. */
export async function withOpenClient<T>(client: ToolClient, fn: (call: Call) => Promise<T>): Promise<T> {
  try {
    return await fn(async <N extends ToolName>(name: N, args: Record<string, unknown>, options?: CallOptions) => unwrap<ToolResult<N>>((await client.callTool(name, args, options)).envelope));
  } finally {
    await client.close();
  }
}

function newOperationId(): string {
  return `op-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Adds `operation_id` (given, or fresh) to a mutating call's arguments. */
export function withOperationId(args: Record<string, unknown>, given: unknown): Record<string, unknown> {
  // "" never reaches here (runCommand refuses empty flags); anything else is the caller's id, checked by the pipeline.
  return { ...args, operation_id: typeof given === "string" ? given : newOperationId() };
}
