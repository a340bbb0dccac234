// The parts of the MCP client SDK we use, bundled by the build into one module (see server-sdk.ts).
export { Client } from "@modelcontextprotocol/client";
export { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
