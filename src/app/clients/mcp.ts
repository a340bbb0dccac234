// The MCP transport for the CLI: spawns `aop mcp` and calls through the official SDK client.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Envelope } from "../../core/errors.js";
import { AopError } from "../../core/errors.js";
import { loadCatalog, mcpToolName } from "../../catalog/catalog.js";
import type { IdentityOverrides } from "../../runtime/run-context.js";
import type { ToolClient } from "./tool-client.js";
import { passThroughValidator } from "./pass-through-validator.js";

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "aop.js");


export interface McpClientOptions {
  root: string;
  /** A checkpoints folder other than <root>/.checkpoints (the CLI's --dir). */
  checkpointsDir?: string;
  identity?: IdentityOverrides;
  env?: NodeJS.ProcessEnv;
  stderr?: "inherit" | "pipe" | "ignore";
}

function serverArgs(root: string, identity: IdentityOverrides = {}, checkpointsDir?: string): string[] {
  const args = [BIN, "mcp", "--root", root];
  if (checkpointsDir) args.push("--checkpoints-dir", checkpointsDir);
  if (identity.actor) args.push("--actor", identity.actor);
  if (identity.session_id) args.push("--session-id", identity.session_id);
  if (identity.run_id) args.push("--run-id", identity.run_id);
  return args;
}

export interface McpToolClient extends ToolClient {
  /** A tools/call with the wire name, returning the raw MCP result. */
  rawCall(mcpName: string, args: unknown): Promise<unknown>;
  /** The raw tools/list answer. */
  rawListTools(): Promise<{ name: string; title?: string; inputSchema: unknown; outputSchema?: unknown; annotations?: Record<string, unknown> }[]>;
}

export async function mcpClient(options: McpClientOptions): Promise<McpToolClient> {
  const { Client, StdioClientTransport } = await import("./client-sdk.js");
  const env = Object.fromEntries(Object.entries(options.env ?? process.env).filter((e): e is [string, string] => typeof e[1] === "string"));
  const transport = new StdioClientTransport({ command: process.execPath, args: serverArgs(options.root, options.identity, options.checkpointsDir), env, stderr: options.stderr ?? "inherit" });
  const client = new Client({ name: "aop-cli", version: "1" }, { jsonSchemaValidator: passThroughValidator });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new AopError("internal_error", `could not start the MCP server (aop mcp): ${(err as Error).message}`, { hint: "run `aop mcp --help` to check the server starts" });
  }

  async function rawCall(mcpName: string, args: unknown): Promise<unknown> {
    return client.callTool({ name: mcpName, arguments: args as Record<string, unknown> });
  }

  return {
    transport: "mcp",
    rawCall,
    async rawListTools() {
      return (await client.listTools()).tools;
    },
    async callTool(name, args, options = {}) {
      // Unknown names go through unchanged so the server's unknown_tool error names what was asked for.
      const wireName = loadCatalog().get(name) ? mcpToolName(name) : name;
      const onAbort = () => void client.close();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      let result: { content?: { type: string; text?: string }[] };
      try {
        result = (await rawCall(wireName, args)) as typeof result;
      } catch (err) {
        if (options.signal?.aborted) throw new AopError("operation_interrupted", `${name} was interrupted: the MCP server was closed`, { details: { reason: String(options.signal.reason) } });
        // An unknown tool is a JSON-RPC error (-32602) whose data is aop's envelope: same result as in-process.
        const data = (err as { code?: unknown; data?: unknown }).data as Envelope | undefined;
        if ((err as { code?: unknown }).code === -32602 && data && data.ok === false) return { envelope: data, envelope_json: JSON.stringify(data) };
        throw err;
      } finally {
        options.signal?.removeEventListener("abort", onAbort);
      }
      // An error result carries a summary line first and the envelope last (adapters/mcp/server.ts).
      const text = result.content?.filter((c) => c.type === "text").at(-1)?.text;
      if (typeof text !== "string") throw new AopError("internal_error", `the MCP server answered ${name} without an envelope`);
      return { envelope: JSON.parse(text) as Envelope, envelope_json: text };
    },
    async listTools() {
      await client.listTools();
      return loadCatalog().tools;
    },
    async close() {
      await client.close();
    },
  };
}
