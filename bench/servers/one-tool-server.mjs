// The baseline of `aop mcp`'s start-up: a trivial stdio server on the same MCP SDK (@modelcontextprotocol/server,
// as its README shows it), with one tool.
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

const server = new McpServer({ name: "one-tool", version: "1.0.0" });
server.registerTool("echo", { description: "Echo the text back", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: "text", text }] }));
await server.connect(new StdioServerTransport());
