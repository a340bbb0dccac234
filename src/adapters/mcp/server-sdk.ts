// The parts of the MCP server SDK we use. The build bundles this one file with esbuild, so `aop mcp`
// loads a single module instead of the SDK's and zod's many files (a large share of its start-up).
export { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server, UriTemplate, deserializeMessage, serializeMessage } from "@modelcontextprotocol/server";
export { serveStdio } from "@modelcontextprotocol/server/stdio";
export type { CallToolResult, GetPromptResult, JSONRPCMessage, ReadResourceResult, Tool, Transport } from "@modelcontextprotocol/server";
