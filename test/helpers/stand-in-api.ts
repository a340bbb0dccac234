// The server half every scripted stand-in model API shares: listen on 127.0.0.1, read each request's
// JSON body (an unreadable body is answered as `{}`), keep it in `requests`, and hand it to the
// stand-in's own router. Each stand-in (Claude's Messages, OpenAI, Gemini) only decides the answer.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeApi {
  url: string;
  requests: { path: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export type StandInRoute = (req: http.IncomingMessage, res: http.ServerResponse, path: string, body: Record<string, unknown>) => void;

export function startStandInApi(route: StandInRoute): Promise<FakeApi> {
  const requests: FakeApi["requests"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
      } catch {
        // kept empty; answered like any request
      }
      const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
      requests.push({ path, body });
      route(req, res, path, body);
    });
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
