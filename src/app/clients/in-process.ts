// The in-process transport: calls the ToolRuntime directly (the CLI default, and the fastest).
import type { ToolRuntime } from "../../runtime/tool-runtime.js";
import type { ToolClient } from "./tool-client.js";

export function inProcessClient(runtime: ToolRuntime): ToolClient {
  return {
    transport: "inprocess",
    async callTool(name, args, options = {}) {
      const r = await runtime.callTool(name, args, {}, options);
      return { envelope: r.envelope, envelope_json: r.envelope_json };
    },
    async listTools() {
      return runtime.listTools();
    },
    async close() {},
  };
}
