// `aop report --serve` under hostile use: requests another site's page makes are refused, live pages are
// capped, and many clients that start from the beginning of a large run and never read keep the server's
// memory bounded (docs/report.md, "Serving").
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crossSite, MAX_LIVE_STREAMS } from "../../../src/domains/report/report-server.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { runCli } from "../../helpers/cli.js";
import { writeLargeRun } from "../../helpers/large-runs.js";
import { REPO_ROOT } from "../../helpers/paths.js";
import { get, serveReport, type Served } from "../../helpers/report-serve.js";
import { tempWorkspace } from "../../helpers/tmp.js";

const HOSTS = new Set(["127.0.0.1:7707", "localhost:7707"]);
const RSS_PROBE = path.join(REPO_ROOT, "test", "workers", "rss-probe.cjs");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("crossSite", () => {
  it.each([
    ["no browser headers (curl, a script)", {}, false],
    ["the page itself (same-origin)", { "sec-fetch-site": "same-origin" }, false],
    ["typed into the address bar", { "sec-fetch-site": "none" }, false],
    ["another site's fetch", { "sec-fetch-site": "cross-site" }, true],
    ["another port of this host (same-site)", { "sec-fetch-site": "same-site" }, true],
    ["a link followed from another site (a navigation)", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }, false],
    ["an iframe of another site", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" }, true],
    ["this server's origin", { origin: "http://127.0.0.1:7707" }, false],
    ["another origin", { origin: "http://evil.example" }, true],
    ["another port", { origin: "http://127.0.0.1:8080" }, true],
    ["https on this host", { origin: "https://127.0.0.1:7707" }, true],
    ["a sandboxed page (null)", { origin: "null" }, true],
  ] as const)("%s → refused: %s", (_name, headers, refused) => {
    expect(crossSite({ headers: headers as http.IncomingHttpHeaders }, HOSTS)).toBe(refused);
  });
});

/** Open the live stream from the start of `runId` and never read it; resolves once the answer's head arrived. */
function stalledStream(url: string, runId: string): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const u = new URL(`events?run=${encodeURIComponent(runId)}&cursor=0`, url);
    const req = http.get({ host: u.hostname, port: u.port, path: u.pathname + u.search }, (res) => {
      res.pause();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on("error", reject);
  });
}

async function maxRss(served: Served): Promise<number> {
  const before = served.stderr().split("aop-rss-probe ").length;
  served.child.kill("SIGUSR2");
  for (let i = 0; i < 300; i++) {
    const parts = served.stderr().split("aop-rss-probe ");
    if (parts.length > before) return (JSON.parse(parts[before]!.split("\n")[0]!) as { max_rss_bytes: number }).max_rss_bytes;
    await pause(10);
  }
  throw new Error(`no answer from the RSS probe: ${served.stderr()}`);
}

describe("aop report --serve under hostile use", () => {
  it("refuses cross-site requests to its API and stream, serves its own page and a followed link", async () => {
    const root = tempWorkspace();
    expect(runCli(["init", "--root", root]).code).toBe(0);
    expect(runCli(["feature", "list", "--root", root, "--run-id", "run:a"]).code).toBe(0);
    const served = await serveReport(root);
    try {
      for (const p of ["api/timeline?run=run:a", "events?run=run:a", ""]) {
        expect((await get(new URL(p, served.url).href, { "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" })).status, p).toBe(403);
        expect((await get(new URL(p, served.url).href, { origin: "http://evil.example" })).status, p).toBe(403);
      }
      expect((await get(new URL("api/timeline?run=run:a", served.url).href, { "sec-fetch-site": "same-origin" })).status).toBe(200);
      expect((await get(served.url, { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" })).status).toBe(200);
    } finally {
      served.child.kill("SIGINT");
      await served.exited;
    }
  });

  it(`12 clients that start a large run from its beginning and never read: memory stays bounded; the ${MAX_LIVE_STREAMS + 1}th live page is refused`, async () => {
    const root = tempWorkspace();
    expect(runCli(["init", "--root", root]).code).toBe(0);
    // ~60 MB of timeline (about 300 bytes an entry).
    writeLargeRun(new WorkspaceLayout(root), "run:big", 200_000);
    // One call through the writer gives the run its meta, as every run aop writes has.
    expect(runCli(["feature", "list", "--root", root, "--run-id", "run:big"]).code).toBe(0);
    const served = await serveReport(root, ["--require", RSS_PROBE]);
    try {
      const idle = await maxRss(served);
      const clients = [];
      for (let i = 0; i < 12; i++) clients.push(await stalledStream(served.url, "run:big"));
      expect(clients.every((c) => c.status === 200)).toBe(true);
      await pause(3_000);
      const rss = await maxRss(served);
      expect(rss - idle, `peak ${Math.round(rss / 2 ** 20)} MiB, idle ${Math.round(idle / 2 ** 20)} MiB`).toBeLessThan(200 * 2 ** 20);
      for (let i = clients.length; i < MAX_LIVE_STREAMS; i++) clients.push(await stalledStream(served.url, "run:big"));
      expect((await stalledStream(served.url, "run:big")).status).toBe(503);
      for (const c of clients) c.close();
      // A page is let in again once the server has noticed the others close (soon, on a loaded machine later).
      await expect.poll(async () => {
        const next = await stalledStream(served.url, "run:big");
        next.close();
        return next.status;
      }, { timeout: 15_000, interval: 100 }).toBe(200);
    } finally {
      served.child.kill("SIGINT");
      await served.exited;
    }
  }, 120_000);
});
