// `aop mcp --http [HOST:]PORT`: the same server over MCP Streamable HTTP (docs/mcp.md). The SDK's own
// pieces do the protocol: createMcpHandler serves the 2026-07-28 per-request revision, a sessionful
// WebStandardStreamableHTTPServerTransport per client serves the 2025 handshakes (a session keeps
// logging levels and lets notifications/cancelled reach the call it cancels), toNodeHandler bridges
// node:http. In front of them, checked on every request: the path, Host and Origin (DNS rebinding), the
// bearer token (required off loopback), and the body size (413).
import http from "node:http";
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { AopError } from "../../core/errors.js";
import type { Server } from "./server-sdk.js";

export const MCP_PATH = "/mcp";
/** A request body larger than this is answered 413 before it is parsed (the SDK's default bound). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long an idle keep-alive connection stays open (below Node's 60 s headers timeout). */
const KEEP_ALIVE_MS = 30_000;
/** 2025-era sessions kept at once; the least recently used one is closed to make room. */
export const MAX_SESSIONS = 64;

export interface HttpListen {
  host: string;
  port: number;
}

export interface HttpServeOptions {
  listen: HttpListen;
  /** Required when the host is not loopback. */
  token?: string;
  log(line: string): void;
  maxBodyBytes?: number;
}

export interface ServedHttp {
  url: string;
  /** Stops accepting, closes every session and in-flight exchange. */
  close(): Promise<void>;
}

/** `PORT`, `HOST:PORT` or `[V6]:PORT`; port 0 picks a free one. */
export function parseListen(spec: string): HttpListen {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(spec.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new AopError("invalid_argument", `--http takes [HOST:]PORT (e.g. 8765, 127.0.0.1:8765, [::1]:0), not '${spec}'`, { hint: "port 0 picks a free port; the host defaults to 127.0.0.1" });
  const host = m[1] ? m[1].replace(/^\[|\]$/g, "") : "127.0.0.1";
  return { host, port };
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** The hostnames Host and Origin may name: loopback names on loopback, else the bound name (any, for a wildcard bind: the token guards it). */
function allowedHostnames(host: string): string[] | "any" {
  if (isLoopback(host)) return ["localhost", "127.0.0.1", "[::1]", hostForUrl(host)];
  if (host === "0.0.0.0" || host === "::") return "any";
  return [hostForUrl(host)];
}

/** Constant-time comparison of the presented bearer token with the configured one (digests: equal lengths). */
export function tokenMatches(header: string | null, token: string): boolean {
  const presented = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "";
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}

function jsonError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status, headers });
}

type Factory = () => Server;

/** Serves `factory`'s server on `options.listen` until closed. Rejects with invalid_argument for a bad address or a port in use. */
export async function serveMcpHttp(factory: Factory, options: HttpServeOptions): Promise<ServedHttp> {
  const { createMcpHandler, isLegacyRequest, validateHostHeader, validateOriginHeader, WebStandardStreamableHTTPServerTransport, toNodeHandler } = await import("./http-sdk.js");
  const { listen, log } = options;
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  if (!isLoopback(listen.host) && !options.token) {
    throw new AopError("invalid_argument", `binding MCP to ${listen.host} (not loopback) needs a bearer token`, { hint: "give one with --token-file <file> or the AOP_MCP_TOKEN environment variable, or bind to 127.0.0.1" });
  }
  const onerror = (err: Error) => log(`aop mcp: ${err.message}`);
  const modern = createMcpHandler(factory, { legacy: "reject", maxRequestBodySize: maxBody, onerror });
  const sessions = new Map<string, { transport: InstanceType<typeof WebStandardStreamableHTTPServerTransport>; server: Server }>();
  const allowed = allowedHostnames(listen.host);

  async function legacy(request: Request): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id) {
      const session = sessions.get(id);
      if (!session) return jsonError(404, "Session not found: start a new one with initialize");
      sessions.delete(id);
      sessions.set(id, session); // most recently used last
      return session.transport.handleRequest(request);
    }
    const server = factory();
    const transport: InstanceType<typeof WebStandardStreamableHTTPServerTransport> = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxBody,
      onsessioninitialized: (sid) => {
        if (sessions.size >= MAX_SESSIONS) {
          const [oldest, s] = sessions.entries().next().value!;
          sessions.delete(oldest);
          void s.server.close();
        }
        sessions.set(sid, { transport, server });
      },
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (!transport.sessionId || !sessions.has(transport.sessionId)) void server.close();
    return response;
  }

  async function fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== MCP_PATH) return jsonError(404, `Not found: MCP is served at ${MCP_PATH}`);
    if (allowed !== "any") {
      const host = validateHostHeader(request.headers.get("host"), allowed);
      if (!host.ok) return jsonError(403, host.message);
      const origin = validateOriginHeader(request.headers.get("origin"), allowed);
      if (!origin.ok) return jsonError(403, origin.message);
    } else {
      // A wildcard bind: an Origin, when a browser sends one, must name the host it sent the request to.
      const hostname = new URL(`http://${request.headers.get("host") ?? "invalid"}`).hostname;
      const origin = validateOriginHeader(request.headers.get("origin"), [hostname]);
      if (!origin.ok) return jsonError(403, origin.message);
    }
    if (options.token && !tokenMatches(request.headers.get("authorization"), options.token)) return jsonError(401, "Unauthorized: a valid bearer token is required", { "WWW-Authenticate": 'Bearer realm="aop-mcp"' });
    const length = Number(request.headers.get("content-length") ?? 0);
    if (length > maxBody) return jsonError(413, `Payload Too Large: a request body must not exceed ${maxBody} bytes`, { connection: "close" });
    return (await isLegacyRequest(request, undefined, { maxRequestBodySize: maxBody })) ? legacy(request) : modern.fetch(request);
  }

  const nodeHandler = toNodeHandler({ fetch }, { maxRequestBodySize: maxBody, onerror });
  const server = http.createServer((req, res) => void nodeHandler(req, res));
  // Clients pool connections and reuse one idle for up to the Keep-Alive hint: Node's 5 s default made
  // a reuse race the server's close ("other side closed") when a client paused between calls.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      const where = `${hostForUrl(listen.host)}:${listen.port}`;
      if (err.code === "EADDRINUSE") reject(new AopError("invalid_argument", `cannot serve MCP on ${where}: the port is in use`, { hint: "choose another port, or 0 for a free one" }));
      else if (err.code === "EADDRNOTAVAIL" || err.code === "ENOTFOUND" || err.code === "EAI_AGAIN") reject(new AopError("invalid_argument", `cannot serve MCP on ${where}: no such local address`, { hint: "use an address of this machine, e.g. 127.0.0.1" }));
      else if (err.code === "EACCES") reject(new AopError("permission_denied", `cannot serve MCP on ${where}: permission denied`, { hint: "ports below 1024 need privileges: choose a higher one" }));
      else reject(err);
    });
    server.listen(listen.port, listen.host, () => resolve());
  });
  server.on("error", (err) => log(`aop mcp: ${err.message}`));
  const address = server.address();
  const port = address && typeof address === "object" ? address.port : listen.port;
  return {
    url: `http://${hostForUrl(listen.host)}:${port}${MCP_PATH}`,
    async close() {
      await modern.close();
      await Promise.all([...sessions.values()].map((s) => s.server.close()));
      sessions.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
