// `aop mcp`: the tool catalog, resources and prompts over MCP (stdio here, HTTP through http.ts), on the
// SDK's low-level Server with one tools/call handler driven by the catalog (docs/kernel.md, docs/mcp.md).
// Tool names are the canonical names with `.` → `_`; schemas are the catalog's documents less `$id` and
// `$schema`; every call goes through the same ToolRuntime as the CLI. On stdio, only JSON-RPC is written
// to stdout.
import { errorEnvelope, type ErrorBody } from "../../core/errors.js";
import { loadCatalog, mcpToolName, readSchemaDocument } from "../../catalog/catalog.js";
import type { CallResult } from "../../runtime/tool-runtime.js";
import { passThroughValidator } from "../../app/clients/pass-through-validator.js";
import type { CallToolResult, Server, Tool } from "./server-sdk.js";
import type { McpServices } from "./services.js";
import { portableSchema } from "./portable-schema.js";

export type { McpServices };

const INSTRUCTIONS =
  "aop-continuity control plane. Start from the resource aop://orientation (or the prompt `resume`): decisions waiting on the user, the state, each open checkpoint's next action. Mutating tools need an operation_id (8-256 chars): retrying with the same id replays the recorded result instead of running twice. Tool errors come back as isError results: a first text `Error <code>: <message>`, then the envelope {ok:false, error:{code, message, details}} as a second text; an unknown tool name is a JSON-RPC error -32602. Before stopping, use the prompt `handoff`.";

/** Clients drop the connection on a message over 10 MiB; a result carries its data twice (text and structured). */
const MAX_RESULT_BYTES = 4.5 * 1024 * 1024;

function resultBytes(json: string): number {
  // A UTF-16 unit is at most 3 UTF-8 bytes: count bytes only when it could matter.
  return json.length * 3 > MAX_RESULT_BYTES ? Buffer.byteLength(json) : json.length;
}

/**
 * An error result: a one-line summary first, the envelope second, and no structuredContent. SDK 1.x
 * clients check structuredContent against the tool's outputSchema even on errors, and Gemini CLI fills a
 * missing structuredContent from the first text when that text is JSON — so the first text never is.
 */
function errorResult(error: Pick<ErrorBody, "code" | "message">, envelopeJson: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `Error ${error.code}: ${error.message}` }, { type: "text", text: envelopeJson }] };
}

/** A success: the envelope as text and the data as structuredContent. An error: see errorResult. */
function toolResult(r: Pick<CallResult, "envelope" | "envelope_json">, canonicalName: string): CallToolResult {
  if (!r.envelope.ok) return errorResult(r.envelope.error, r.envelope_json);
  const bytes = resultBytes(r.envelope_json);
  if (bytes > MAX_RESULT_BYTES) {
    const message = `the result of ${canonicalName} is ${bytes} bytes, more than one MCP message can carry twice (${MAX_RESULT_BYTES}); ask for less (a smaller limit, a filter)`;
    return errorResult({ code: "payload_too_large", message }, JSON.stringify(errorEnvelope("payload_too_large", message, { tool_name: canonicalName, bytes, limit: MAX_RESULT_BYTES })));
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

/**
 * A catalog schema as served: without `$id` (clients that keep one Ajv for every tool refuse a second
 * schema with the same id, and compile on every call) and without `$schema` (MCP's default dialect is
 * 2020-12 and the schemas use only keywords draft-07 validators share; docs/mcp.md), and with every
 * `type` array spelled as `anyOf` (portable-schema.ts).
 */
function servedSchema(ref: string): Record<string, unknown> {
  const { $id: _id, $schema: _schema, ...rest } = readSchemaDocument(ref);
  return portableSchema(rest) as Record<string, unknown>;
}

/** tools/list: every catalog tool, schemas read on first use (start-up does not wait for them). */
function listTools(): Tool[] {
  tools ??= loadCatalog().tools.map((entry) => ({
    name: mcpToolName(entry.name),
    title: entry.title,
    description: entry.description,
    inputSchema: servedSchema(entry.input_schema_ref) as Tool["inputSchema"],
    outputSchema: servedSchema(entry.output_schema_ref) as Tool["outputSchema"],
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

/** Where the tools/call handler sends a call's progress: `notifications/progress` for the request's token. */
function progressNotifier(token: string | number | undefined, notify: (n: { method: "notifications/progress"; params: Record<string, unknown> }) => Promise<void>): ((event: unknown) => void) | undefined {
  if (token === undefined) return undefined;
  let progress = 0;
  return (event) => {
    const step = describeProgress(event);
    if (!step) return;
    progress = Math.max(progress + 1, step.progress ?? 0);
    void notify({ method: "notifications/progress", params: { progressToken: token, progress, ...(step.total !== undefined ? { total: step.total } : {}), message: step.message } }).catch(() => undefined);
  };
}

/** A finished gate step in one word (its StepResult: skipped, timed out, or its exit code). */
function stepVerdict(result: unknown): string {
  const r = (result ?? {}) as { skipped?: boolean; timed_out?: boolean; exit_code?: number | null };
  if (r.skipped) return "skipped";
  if (r.timed_out) return "timed out";
  return r.exit_code === 0 ? "pass" : `fail (exit ${String(r.exit_code)})`;
}

/** A handler's progress event (gates, chain verification, doctor) as MCP progress: a count and a line. */
function describeProgress(event: unknown): { progress?: number; total?: number; message: string } | undefined {
  if (!event || typeof event !== "object") return undefined;
  const e = event as Record<string, unknown>;
  if (e.type === "run-start") return { message: `gates: ${String(e.steps)} steps in ${String(e.waves)} waves` };
  if (e.type === "step-start") return { message: `gate step ${String(e.step)} started` };
  if (e.type === "step-finish") return { message: `gate step ${String(e.step)} finished: ${stepVerdict(e.result)}` };
  if (typeof e.walked === "number") return { progress: e.walked, ...(typeof e.expected === "number" ? { total: e.expected } : {}), message: `chain: ${e.walked} entries verified` };
  if (e.type === "doctor-check") return { progress: Number(e.done), total: Number(e.total), message: `doctor: ${String(e.check)}` };
  return undefined;
}

/** The server behind every transport: one instance per stdio connection or per HTTP session/request, all on one runtime. */
export async function mcpServerFactory(services: McpServices, version: string): Promise<() => Server> {
  const { ProtocolError, ProtocolErrorCode, Server } = await import("./server-sdk.js");
  const { registerResources } = await import("./resources.js");
  const { registerPrompts } = await import("./prompts.js");
  const { registerCompletions } = await import("./completions.js");
  const catalog = loadCatalog();
  const byMcpName = new Map(catalog.tools.map((t) => [mcpToolName(t.name), t.name]));
  const { runtime } = services;
  return () => {
    const server = new Server(
      { name: "aop-continuity", version },
      { capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {}, logging: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: passThroughValidator },
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
      // notifications/cancelled (or, on HTTP, the client closing the request) aborts the call: its work is
      // stopped and only operation_cancelled is recorded.
      const signal = cancellationSignal(ctx.mcpReq.signal);
      const onProgress = progressNotifier(request.params._meta?.progressToken, (n) => ctx.mcpReq.notify(n));
      return toolResult(await runtime.callTool(canonical, args ?? {}, {}, { signal, ...(onProgress ? { onProgress } : {}), ...(handoffId ? { handoffId } : {}) }), canonical);
    });
    registerResources(server, services);
    registerPrompts(server, services);
    registerCompletions(server, services);
    return server;
  };
}

/**
 * `closed` settles when the connection is over; `answered` once the server has written its first message
 * (the handshake's answer). `log` takes the transport's errors, which may quote what the client sent.
 */
export async function serveMcp(services: McpServices, version: string, log: (line: string) => void): Promise<{ close(): Promise<void>; closed: Promise<void>; answered: Promise<void> }> {
  const { serveStdio } = await import("./server-sdk.js");
  const { GuardedStdioTransport } = await import("./guarded-stdio-transport.js");
  const factory = await mcpServerFactory(services, version);
  const transport = new GuardedStdioTransport();
  const handle = serveStdio(factory, { transport, onerror: (err: Error) => log(`aop mcp: ${err.message}`) });
  return { close: () => handle.close(), closed: transport.closed, answered: transport.firstSent };
}
