// What a command needs from a transport: call a tool, list tools, close. In-process and MCP alike.
import type { Envelope } from "../../core/errors.js";
import type { CatalogEntry } from "../../catalog/tool-types.js";

export interface ClientCallResult {
  envelope: Envelope;
  envelope_json: string;
}

export interface ToolClient {
  readonly transport: "inprocess" | "mcp";
  /**
   * `onProgress` is honoured in-process; MCP calls report only their result. Aborting `signal` interrupts
   * the call (over MCP: the server is closed, so it interrupts whatever it runs, as for any client gone).
   */
  callTool(canonicalName: string, args: Record<string, unknown>, options?: { onProgress?: (event: unknown) => void; signal?: AbortSignal }): Promise<ClientCallResult>;
  listTools(): Promise<CatalogEntry[]>;
  close(): Promise<void>;
}
