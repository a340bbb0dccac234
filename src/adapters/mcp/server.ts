// `aop mcp`: every catalog tool over stdio with the official SDK. Tool names are the canonical names
// with `.` → `_`; schemas are the catalog's, passed through the SDK's JSON-Schema adapter; every call
// goes through the same ToolRuntime as the CLI. Only JSON-RPC is written to stdout.
import type { CallToolResult } from "./server-sdk.js";
import { loadCatalog, mcpToolName, readSchemaDocument } from "../../catalog/catalog.js";
import type { ToolRuntime } from "../../runtime/tool-runtime.js";
import { errorEnvelope } from "../../core/errors.js";
import { passThroughValidator as passThrough } from "../../app/clients/pass-through-validator.js";


const INSTRUCTIONS =
  "aop-continuity control plane. Mutating tools need an operation_id (8-256 chars): retrying with the same id replays the recorded result instead of running twice. Errors come back as isError results carrying {ok:false, error:{code, message, details}}.";

export async function toolResult(runtime: ToolRuntime, canonicalName: string, args: unknown): Promise<CallToolResult> {
  const r = await runtime.callTool(canonicalName, args ?? {});
  if (r.envelope.ok) return { content: [{ type: "text", text: r.envelope_json }], structuredContent: r.envelope.data as Record<string, unknown> };
  return { isError: true, content: [{ type: "text", text: r.envelope_json }], structuredContent: r.envelope as unknown as Record<string, unknown> };
}

export async function serveMcp(runtime: ToolRuntime, version: string): Promise<{ close(): Promise<void> }> {
  const { McpServer, fromJsonSchema, serveStdio } = await import("./server-sdk.js");
  const catalog = loadCatalog();
  const byMcpName = new Map(catalog.tools.map((t) => [mcpToolName(t.name), t.name]));
  const schemas = catalog.tools.map((t) => ({ entry: t, input: readSchemaDocument(t.input_schema_ref), output: readSchemaDocument(t.output_schema_ref) }));

  const handle = serveStdio(
    () => {
      const server = new McpServer({ name: "aop-continuity", version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
      for (const { entry, input, output } of schemas) {
        server.registerTool(
          mcpToolName(entry.name),
          {
            title: entry.title,
            description: entry.description,
            inputSchema: fromJsonSchema(input, passThrough),
            outputSchema: fromJsonSchema(output, passThrough),
            // Mutating tools replay by operation_id, so a repeated identical call has no further effect.
            annotations: { title: entry.title, readOnlyHint: !entry.mutating, idempotentHint: true, destructiveHint: false, openWorldHint: false },
          },
          (args: unknown) => toolResult(runtime, entry.name, args),
        );
      }
      // The SDK answers an unknown tool name with a protocol error; our contract is that every tool
      // failure (unknown_tool included) is an isError result carrying the envelope, as in-process.
      server.server.setRequestHandler("tools/call", async (request) => {
        const canonical = byMcpName.get(request.params.name);
        if (canonical) return toolResult(runtime, canonical, request.params.arguments);
        if (catalog.get(request.params.name)) return toolResult(runtime, request.params.name, request.params.arguments);
        const unknown = await runtime.callTool(request.params.name, request.params.arguments ?? {});
        const envelope = unknown.envelope.ok ? errorEnvelope("unknown_tool", `unknown tool '${request.params.name}'`) : unknown.envelope;
        return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }], structuredContent: envelope as unknown as Record<string, unknown> };
      });
      return server;
    },
    { onerror: (err: Error) => process.stderr.write(`aop mcp: ${err.message}\n`) },
  );
  return handle;
}
