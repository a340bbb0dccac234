// The same trivial one-tool stdio server on the 1.x line of the SDK (@modelcontextprotocol/sdk), for reference.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

const server = new McpServer({ name: "one-tool", version: "1.0.0" });
server.registerTool("echo", { description: "Echo the text back", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
await server.connect(new StdioServerTransport());
