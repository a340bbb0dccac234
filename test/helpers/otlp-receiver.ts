// A real OTLP receiver for tests: @elastic/mockotlpserver on 127.0.0.1, port 0, HTTP only. Every
// server in a process receives every other's data (a process-global diagnostics channel), so a test
// file starts one and tests tell their spans apart by trace id. Also: the receiver's own protobuf
// decoding (the official .proto files it ships), and a proxy that answers 503 before forwarding.
import http from "node:http";
import { createRequire } from "node:module";
import { waitFor } from "./wait.js";

const require = createRequire(import.meta.url);

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  status: { code: string; message?: string };
}

interface NormalizedTrace {
  resourceSpans: { resource: { attributes: Record<string, unknown> }; scopeSpans: { scope: { name: string; version?: string }; spans: ReceivedSpan[] }[] }[];
}

interface MockServer {
  start(): Promise<void>;
  close(): Promise<void>;
  httpUrl: URL;
}

const mock = require("@elastic/mockotlpserver") as {
  MockOtlpServer: new (options: object) => MockServer;
  normalizeTrace(raw: unknown): NormalizedTrace;
};
const proto = require("@elastic/mockotlpserver/lib/proto.js") as { getProtoRoot(): { lookupType(name: string): { decode(bytes: Buffer): unknown } } };

interface ReceivedRequest {
  contentType: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  trace: NormalizedTrace | null;
}

export interface Receiver {
  /** The traces URL, http://127.0.0.1:<port>/v1/traces. */
  url: string;
  /** The base URL (for OTEL_EXPORTER_OTLP_ENDPOINT). */
  base: string;
  requests: ReceivedRequest[];
  /** Every span received for one trace, in arrival order. */
  spans(traceId: string): ReceivedSpan[];
  /** Requests that carried spans of this trace. */
  requestsFor(traceId: string): NormalizedTrace[];
  close(): Promise<void>;
}

/** protobufjs leaves out empty repeated fields the JSON form carries: drop empty arrays on both sides. */
function dropEmptyArrays<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_k, x: unknown) => (Array.isArray(x) && x.length === 0 ? undefined : x))) as T;
}

export function normalizeTrace(raw: unknown): NormalizedTrace {
  return dropEmptyArrays(mock.normalizeTrace(raw));
}

export function spansOf(trace: NormalizedTrace): ReceivedSpan[] {
  return trace.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

/** An ExportTraceServiceRequest in protobuf, decoded with the opentelemetry-proto definitions. */
export function decodeProtobufRequest(bytes: Uint8Array): NormalizedTrace {
  const type = proto.getProtoRoot().lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
  return normalizeTrace(type.decode(Buffer.from(bytes)));
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const pendingHeaders: ReceivedRequest[] = [];
  const server = new mock.MockOtlpServer({
    services: ["http"],
    httpHostname: "127.0.0.1",
    httpPort: 0,
    logLevel: "error",
    onRequest: (info: { path: string; headers: Record<string, string | string[] | undefined> }) => {
      if (!info.path.startsWith("/v1/traces")) return;
      const request: ReceivedRequest = { contentType: info.headers["content-type"] as string | undefined, headers: info.headers, trace: null };
      requests.push(request);
      pendingHeaders.push(request);
    },
    onTrace: (raw: unknown) => {
      const request = pendingHeaders.shift();
      const trace = normalizeTrace(raw);
      if (request) request.trace = trace;
      else requests.push({ contentType: undefined, headers: {}, trace });
    },
  });
  await server.start();
  const base = server.httpUrl.href;
  const requestsFor = (traceId: string) => requests.map((r) => r.trace).filter((t): t is NormalizedTrace => t !== null && spansOf(t).some((s) => s.traceId === traceId));
  return {
    url: new URL("v1/traces", base).href,
    base,
    requests,
    spans: (traceId) => requestsFor(traceId).flatMap((t) => spansOf(t).filter((s) => s.traceId === traceId)),
    requestsFor,
    close: () => server.close(),
  };
}

/** The receiver hands traces over after answering: give it a moment before asserting. */
export async function settle(predicate: () => boolean = () => true, timeoutMs = 5_000): Promise<void> {
  await new Promise((r) => setTimeout(r, 50));
  await waitFor(predicate, timeoutMs);
}

export interface FlakyProxy {
  url: string;
  /** Status answered to each request, in order (what the exporter saw). */
  answered: number[];
  /** The request bodies, in order. */
  bodies: Buffer[];
  close(): Promise<void>;
}

/**
 * A front for the receiver that answers `status` (with `Retry-After: 0`) to the requests whose
 * 1-based numbers are in `failing`, and forwards every other one unchanged.
 */
export function startFlakyProxy(targetBase: string, failing: ReadonlySet<number>, status = 503, port = 0): Promise<FlakyProxy> {
  const target = new URL(targetBase);
  const answered: number[] = [];
  const bodies: Buffer[] = [];
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      count += 1;
      bodies.push(Buffer.concat(chunks));
      if (failing.has(count)) {
        answered.push(status);
        res.writeHead(status, { "retry-after": "0", "content-type": "text/plain" });
        res.end("unavailable");
        return;
      }
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers, host: target.host, "content-length": String(body.length) };
      const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (up) => {
        answered.push(up.statusCode ?? 0);
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on("error", (err) => {
        answered.push(502);
        res.writeHead(502);
        res.end(String(err));
      });
      upstream.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${address.port}/v1/traces`, answered, bodies, close: () => new Promise<void>((r) => server.close(() => r())) });
    }),
  );
}

/** A loopback port nothing listens on (bound, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = http.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
