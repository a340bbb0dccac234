// What a command needs from a transport: call a tool, list tools, close. In-process and MCP alike.
import type { Envelope } from "../../core/errors.js";
import type { CatalogEntry } from "../../catalog/tool-types.js";

export interface ClientCallResult {
  envelope: Envelope;
  envelope_json: string;
}

export interface ToolClient {
  readonly transport: "inprocess" | "mcp";
  /** `onProgress` is honoured in-process; MCP calls report only their result. */
  callTool(canonicalName: string, args: Record<string, unknown>, options?: { onProgress?: (event: unknown) => void }): Promise<ClientCallResult>;
  listTools(): Promise<CatalogEntry[]>;
  close(): Promise<void>;
}
