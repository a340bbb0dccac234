// The parts of the MCP SDK only `aop mcp --http` uses, bundled apart from server-sdk.ts (scripts/bundle-bins.mjs)
// so that stdio start-up does not parse them. The server instances come from server-sdk.ts; these pieces
// only connect transports to them.
export { createMcpHandler, isLegacyRequest, validateHostHeader, validateOriginHeader, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
export { toNodeHandler } from "@modelcontextprotocol/node";
