// `aop report --serve`: the same page over HTTP on 127.0.0.1 only, answering only to its own Host name
// (a DNS-rebinding page cannot reach it), with new timeline entries pushed as server-sent events.
// Read-only: it serves what is on disk and writes nothing. Protocol in docs/report.md.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../core/clock.js";
import { AopError, isAopError } from "../../core/errors.js";
import { idProblem } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { EvidenceTrustJudge } from "../evidence/index.js";
import { buildReport, type ReportOptions, type ReportPorts } from "./build-report.js";
import { markLedgerEvidence } from "./evidence-marks.js";
import { DEFAULT_LEDGER_BUDGET, ledgerView } from "./gather-ledger.js";
import { DEFAULT_BUDGET, gatherRuns } from "./gather-runs.js";
import { headerPolicy, renderReportHtml, type PageAssets } from "./html-page.js";
import { streamRun } from "./live-stream.js";
import { leavesWorkspace } from "./workspace-guard.js";

export interface ServeSetup {
  layout: WorkspaceLayout;
  clock: Clock;
  options: Omit<ReportOptions, "live">;
  ports: ReportPorts;
  assets: PageAssets;
  port: number;
  signal: AbortSignal;
  onListening(url: string): void;
}

const BASE_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cross-origin-resource-policy": "same-origin" };

function send(res: http.ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...BASE_HEADERS, "content-type": type, "content-length": Buffer.byteLength(body), ...extra });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
}

/** Live pages served at once: each holds a poll loop and a socket; the page needs one per open tab. */
export const MAX_LIVE_STREAMS = 16;

/**
 * A request another site's page made (a browser says so in Sec-Fetch-Site, or in an Origin that is not
 * this server's): refused, so no page elsewhere can read the timeline or the ledger through the visitor's
 * browser (a DNS-rebinding page is already refused by the Host check).
 */
export function crossSite(req: Pick<http.IncomingMessage, "headers">, hosts: ReadonlySet<string>): boolean {
  // Following a link to the page is fine: a page elsewhere cannot read a document it navigated to.
  if (req.headers["sec-fetch-mode"] === "navigate" && req.headers["sec-fetch-dest"] === "document") return false;
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none") return true;
  const origin = req.headers.origin;
  if (typeof origin !== "string") return false;
  try {
    const url = new URL(origin);
    return url.protocol !== "http:" || !hosts.has(url.host);
  } catch {
    return true; // "null" (a sandboxed or file page) and garbage alike
  }
}

/** Resolves once the response's buffer has drained, or the stream ended. */
function drained(res: http.ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    res.once("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}

function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export async function serveReport(setup: ServeSetup): Promise<void> {
  const { layout, clock, ports, assets } = setup;
  const options: ReportOptions = { ...setup.options, live: true };
  let hosts = new Set<string>();
  const streams = new Set<AbortController>();

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (!hosts.has(req.headers.host ?? "")) return send(res, 421, "text/plain; charset=utf-8", "misdirected request: this server answers only to its own address on 127.0.0.1\n");
    if (crossSite(req, hosts)) return send(res, 403, "text/plain; charset=utf-8", "cross-site request refused: only this server's own page may call it\n");
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain; charset=utf-8", "only GET is served\n", { allow: "GET, HEAD" });
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/") {
      const built = await buildReport(layout, clock, options, ports);
      return send(res, 200, "text/html; charset=utf-8", renderReportHtml(built.data, assets, "served"), { "content-security-policy": headerPolicy(assets) });
    }
    const runId = url.searchParams.get("run") ?? "";
    if (url.pathname === "/api/timeline" || url.pathname === "/events") {
      if (idProblem(runId) !== null) return sendJson(res, 400, { error: "run must name a run id" });
    }
    if (url.pathname === "/api/timeline") {
      const sinceMs = options.since === null ? null : Date.parse(options.since);
      const gathered = await gatherRuns(layout, { runIds: [runId], sinceMs }, DEFAULT_BUDGET);
      const timeline = gathered.timelines[0];
      if (!timeline) return sendJson(res, 404, { error: gathered.runs[0]?.note ?? "no entries" });
      return sendJson(res, 200, { run: { ...gathered.runs[0], cursor: gathered.cursors.get(runId) ?? 0 }, timeline, cursor: gathered.cursors.get(runId) ?? 0 });
    }
    if (url.pathname === "/api/ledger") {
      const op = url.searchParams.get("op") ?? "";
      if (op === "" || op.length > 256) return sendJson(res, 400, { error: "op must be an operation id" });
      const view = ledgerView(op, ports.readLedger(op), DEFAULT_LEDGER_BUDGET.maxEnvelopeBytes);
      return sendJson(res, 200, leavesWorkspace(layout, layout.featuresDir) ? view : markLedgerEvidence(view, new EvidenceTrustJudge(layout)));
    }
    if (url.pathname === "/events") {
      if (streams.size >= MAX_LIVE_STREAMS) return send(res, 503, "text/plain; charset=utf-8", `too many live pages (${MAX_LIVE_STREAMS}); close one and reload\n`, { "retry-after": "5" });
      const cursor = Number(req.headers["last-event-id"] ?? url.searchParams.get("cursor") ?? "0");
      const stop = new AbortController();
      streams.add(stop);
      req.on("close", () => stop.abort());
      res.writeHead(200, { ...BASE_HEADERS, "content-type": "text/event-stream; charset=utf-8", connection: "keep-alive" });
      try {
        const sink = { write: (text: string) => res.write(text), drained: (signal: AbortSignal) => drained(res, signal) };
        await streamRun(layout, runId, Number.isInteger(cursor) && cursor >= 0 ? cursor : 0, sink, stop.signal);
      } finally {
        streams.delete(stop);
        res.end();
      }
      return;
    }
    send(res, 404, "text/plain; charset=utf-8", "not found\n");
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.end();
      const message = err instanceof Error ? err.message : String(err);
      sendJson(res, isAopError(err) && err.code === "replay_run_not_found" ? 404 : 500, { error: message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(err.code === "EADDRINUSE" ? new AopError("invalid_argument", `port ${setup.port} on 127.0.0.1 is in use`, { hint: "pass another --port, or --port 0 for any free one" }) : err),
    );
    server.listen(setup.port, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(port);
  setup.onListening(`http://127.0.0.1:${port}/`);
  await new Promise<void>((resolve) => {
    const close = () => {
      for (const s of streams) s.abort();
      server.close(() => resolve());
      server.closeAllConnections();
    };
    if (setup.signal.aborted) close();
    else setup.signal.addEventListener("abort", close, { once: true });
  });
}
