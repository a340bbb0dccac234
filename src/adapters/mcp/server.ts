// `aop mcp`: the tool catalog, resources and prompts over MCP stdio, on the SDK's low-level Server with
// one tools/call handler driven by the catalog (docs/kernel.md). Tool names are the canonical names
// with `.` → `_`; schemas are the catalog's documents as they are; every call goes through the same
// ToolRuntime as the CLI. Only JSON-RPC is written to stdout.
import { errorEnvelope } from "../../core/errors.js";
import { loadCatalog, mcpToolName, readSchemaDocument } from "../../catalog/catalog.js";
import type { CallResult } from "../../runtime/tool-runtime.js";
import { passThroughValidator } from "../../app/clients/pass-through-validator.js";
import type { CallToolResult, Tool } from "./server-sdk.js";
import type { McpServices } from "./services.js";

export type { McpServices };

const INSTRUCTIONS =
  "aop-continuity control plane. Start from the resource aop://orientation (or the prompt `resume`): decisions waiting on the user, the state, each open checkpoint's next action. Mutating tools need an operation_id (8-256 chars): retrying with the same id replays the recorded result instead of running twice. Tool errors come back as isError results whose text is {ok:false, error:{code, message, details}}; an unknown tool name is a JSON-RPC error -32602. Before stopping, use the prompt `handoff`.";

/** Clients drop the connection on a message over 10 MiB; a result carries its data twice (text and structured). */
const MAX_RESULT_BYTES = 4.5 * 1024 * 1024;

function resultBytes(json: string): number {
  // A UTF-16 unit is at most 3 UTF-8 bytes: count bytes only when it could matter.
  return json.length * 3 > MAX_RESULT_BYTES ? Buffer.byteLength(json) : json.length;
}

/** A success: the envelope as text and the data as structuredContent. An error: the envelope as text only. */
function toolResult(r: Pick<CallResult, "envelope" | "envelope_json">, canonicalName: string): CallToolResult {
  // No structuredContent on errors: SDK 1.x clients check it against the tool's outputSchema even then.
  if (!r.envelope.ok) return { isError: true, content: [{ type: "text", text: r.envelope_json }] };
  const bytes = resultBytes(r.envelope_json);
  if (bytes > MAX_RESULT_BYTES) {
    const envelope = errorEnvelope("payload_too_large", `the result of ${canonicalName} is ${bytes} bytes, more than one MCP message can carry twice (${MAX_RESULT_BYTES}); ask for less (a smaller limit, a filter)`, { tool_name: canonicalName, bytes, limit: MAX_RESULT_BYTES });
    return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }] };
  }
  return { content: [{ type: "text", text: r.envelope_json }], structuredContent: r.envelope.data as Record<string, unknown> };
}

/** The request's abort signal, aborted with the reason the gate runner names ("client_cancelled"). */
function cancellationSignal(request: AbortSignal): AbortSignal {
  const cancelled = new AbortController();
  if (request.aborted) cancelled.abort("client_cancelled");
  else request.addEventListener("abort", () => cancelled.abort("client_cancelled"), { once: true });
  return cancelled.signal;
}

let tools: Tool[] | undefined;

/** tools/list: every catalog tool, schemas read on first use (start-up does not wait for them). */
function listTools(): Tool[] {
  tools ??= loadCatalog().tools.map((entry) => ({
    name: mcpToolName(entry.name),
    title: entry.title,
    description: entry.description,
    inputSchema: readSchemaDocument(entry.input_schema_ref) as Tool["inputSchema"],
    outputSchema: readSchemaDocument(entry.output_schema_ref) as Tool["outputSchema"],
    // Mutating tools replay by operation_id, so a repeated identical call has no further effect.
    annotations: { title: entry.title, readOnlyHint: !entry.mutating, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  }));
  return tools;
}

/** Claude Code's id for the call (`_meta["claudecode/toolUseId"]`): its session hook then files the entry. */
function claudeToolUseId(meta: unknown): string | undefined {
  const id = meta && typeof meta === "object" ? (meta as Record<string, unknown>)["claudecode/toolUseId"] : undefined;
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : undefined;
}

/**
 * `closed` settles when the connection is over; `answered` once the server has written its first message
 * (the handshake's answer). `log` takes the transport's errors, which may quote what the client sent.
 */
export async function serveMcp(services: McpServices, version: string, log: (line: string) => void): Promise<{ close(): Promise<void>; closed: Promise<void>; answered: Promise<void> }> {
  const { ProtocolError, ProtocolErrorCode, Server, serveStdio } = await import("./server-sdk.js");
  const { GuardedStdioTransport } = await import("./guarded-stdio-transport.js");
  const { registerResources } = await import("./resources.js");
  const { registerPrompts } = await import("./prompts.js");
  const catalog = loadCatalog();
  const byMcpName = new Map(catalog.tools.map((t) => [mcpToolName(t.name), t.name]));
  const { runtime } = services;

  const transport = new GuardedStdioTransport();

  const handle = serveStdio(
    () => {
      const server = new Server(
        { name: "aop-continuity", version },
        { capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: passThroughValidator },
      );
      server.setRequestHandler("tools/list", async () => ({ tools: listTools() }));
      server.setRequestHandler("tools/call", async (request, ctx) => {
        const { name, arguments: args } = request.params;
        const canonical = byMcpName.get(name) ?? (catalog.get(name) ? name : undefined);
        if (!canonical) {
          // Recorded like any call, then answered as the protocol error MCP defines for it; the
          // envelope rides along in `data` for clients that want aop's code and hint.
          const r = await runtime.callTool(name, args ?? {});
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`, r.envelope);
        }
        const handoffId = claudeToolUseId(request.params._meta);
        // notifications/cancelled aborts the call: its work is stopped and only operation_cancelled is recorded.
        const signal = cancellationSignal(ctx.mcpReq.signal);
        return toolResult(await runtime.callTool(canonical, args ?? {}, {}, { signal, ...(handoffId ? { handoffId } : {}) }), canonical);
      });
      registerResources(server, services);
      registerPrompts(server, services);
      return server;
    },
    { transport, onerror: (err: Error) => log(`aop mcp: ${err.message}`) },
  );
  return { close: () => handle.close(), closed: transport.closed, answered: transport.firstSent };
}
