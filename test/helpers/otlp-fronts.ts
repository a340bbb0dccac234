// Hostile or awkward HTTP servers on 127.0.0.1 for the export's hardening tests: one that redirects,
// one that records whatever reaches it, one that answers an error quoting the request's URL, and a slow
// front that forwards to the receiver at once but answers late.
import http from "node:http";

interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Front {
  url: string;
  port: number;
  /** Every request that reached this server, in order. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

type Handler = (request: SeenRequest, res: http.ServerResponse, req: http.IncomingMessage) => void;

/** A server on 127.0.0.1 that records each request and hands it, read whole, to `handler`. */
export function startFront(handler: Handler, port = 0): Promise<Front> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(request);
      handler(request, res, req);
    });
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => {
      const address = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${address.port}/v1/traces`,
        port: address.port,
        seen,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    }),
  );
}

/** Answers every request with 200 and an empty body (what a careless redirect target would). */
export function startRecorder(): Promise<Front> {
  return startFront((_request, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
}

/** Answers every request with `status` and `Location: location`. */
export function startRedirector(status: number, location: string, port = 0): Promise<Front> {
  return startFront((_request, res) => {
    res.writeHead(status, { location, "content-type": "text/plain" });
    res.end("moved");
  }, port);
}

/** Answers `status` with a body that quotes the request line, as many servers' error pages do. */
export function startEchoingError(status: number): Promise<Front> {
  return startFront((request, res) => {
    res.writeHead(status, { "content-type": "text/plain", "retry-after": "0" });
    res.end(`cannot ${request.method} ${request.url}`);
  });
}

export interface SlowFront extends Front {
  /** How many requests were answered (the answer written in full before the client went away). */
  readonly answered: number;
  /** How many requests the client gave up on: its connection closed before their answer. */
  readonly abandoned: number;
  /** How late each answer comes; may be changed while the front runs. */
  delayMs: number;
}

/**
 * Forwards each request to the receiver at `targetBase` as soon as it arrives (so the receiver has it
 * even if the client gives up), and answers with the receiver's answer `delayMs` later; the first
 * `answerAtOnce` requests are answered without delay.
 */
export async function startSlowFront(targetBase: string, delayMs: number, answerAtOnce = 0): Promise<SlowFront> {
  const target = new URL(targetBase);
  const state = { answered: 0, abandoned: 0, delayMs, requests: 0 };
  const front = await startFront((request, res) => {
    const delay = ++state.requests <= answerAtOnce ? 0 : state.delayMs;
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    res.on("close", () => {
      clearTimeout(timer);
      if (!answered) state.abandoned += 1;
    });
    const headers = { ...request.headers, host: target.host, "content-length": String(request.body.length) };
    const upstream = http.request({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on("data", (c: Buffer) => chunks.push(c));
      up.on("end", () => {
        timer = setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(up.statusCode ?? 502, { "content-type": up.headers["content-type"] ?? "application/octet-stream" });
          res.end(Buffer.concat(chunks), () => {
            answered = true;
            state.answered += 1;
          });
        }, delay);
      });
    });
    upstream.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    upstream.end(request.body);
  });
  return Object.defineProperties(front, {
    answered: { get: () => state.answered, enumerable: true },
    abandoned: { get: () => state.abandoned, enumerable: true },
    delayMs: { get: () => state.delayMs, set: (ms: number) => (state.delayMs = ms), enumerable: true },
  }) as SlowFront;
}
