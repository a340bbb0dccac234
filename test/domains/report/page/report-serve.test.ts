// `aop report --serve` with a real browser: the page over 127.0.0.1, a call made after the page loaded
// appears without a reload; only its own Host name is answered; Ctrl-C stops it; nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, type Browser } from "../../../helpers/browser.js";
import { runCli } from "../../../helpers/cli.js";
import { get, serveReport } from "../../../helpers/report-serve.js";
import { reportWorkspace, snapshot, timelineLines } from "../../../helpers/report-workspace.js";

let browser: Browser;
let root: string;
let layout: ReturnType<typeof reportWorkspace>["layout"];

beforeAll(async () => {
  ({ root, layout } = reportWorkspace());
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

function serve(): ReturnType<typeof serveReport> {
  return serveReport(root);
}

describe("aop report --serve", () => {
  it("shows a call made after the page loaded, without a reload", async () => {
    const { child, url, exited } = await serve();
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const opened = await openPage(browser, `${url}#run=run%3Akernel`, { allowOrigin: url.slice(0, -1) });
      const { page } = opened;
      const before = timelineLines(layout, "run:kernel").length;
      expect(await page.locator('[data-testid="match-count"]').textContent()).toBe(`${before} entries`);
      await page.evaluate("window.__loadedOnce = true");
      expect(runCli(["feature", "list", "--root", root, "--run-id", "run:kernel"]).code).toBe(0);
      await expect.poll(() => page.locator('[data-testid="match-count"]').textContent(), { timeout: 10_000 }).toBe(`${before + 1} entries`);
      await page.locator(".rows").evaluate((el) => (el.scrollTop = el.scrollHeight));
      await expect.poll(() => page.locator(`.rows .row[data-seq="${before}"] .c3`).textContent()).toBe("feature.list");
      expect(await page.evaluate("window.__loadedOnce")).toBe(true);
      expect(opened.networkRequests()).toEqual([]);
      expect(opened.errors).toEqual([]);
      await page.close();
    } finally {
      child.kill("SIGINT");
      expect(await exited).toBe(0);
    }
  });

  it("answers only to its own Host name, only GET, with the CSP as a header; Ctrl-C stops it and nothing is written", async () => {
    const before = snapshot(root);
    const { child, url, exited } = await serve();
    try {
      const page = await get(url);
      expect(page.status).toBe(200);
      expect(page.headers["content-security-policy"]).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
      expect((await get(url, { host: "evil.example" })).status).toBe(421);
      expect((await get(url, { host: `evil.example:${new URL(url).port}` })).status).toBe(421);
      expect((await get(url, {}, "POST")).status).toBe(405);
      expect((await get(`${url}api/timeline?run=agent-run`)).body).toMatch(/"run_id":"agent-run"/);
      expect((await get(`${url}api/timeline?run=..%2Fx`)).status).toBe(400);
      expect((await get(`${url}api/timeline?run=nope`)).status).toBe(404);
      expect(JSON.parse((await get(`${url}api/ledger?op=op-block-0001`)).body)).toMatchObject({ status: "recorded", tool_name: "feature.set_status" });
      // A gate run's envelope fetched on demand carries its evidence file's mark, as an embedded one does.
      const gate = timelineLines(layout, "run:kernel").find((l) => l.tool_name === "gates.run")!;
      expect(JSON.parse((await get(`${url}api/ledger?op=${encodeURIComponent(gate.operation_id as string)}`)).body)).toMatchObject({ tool_name: "gates.run", evidence: { feature_id: "feat_login", trust: { status: "chained" } } });
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
    expect(snapshot(root)).toEqual(before);
  });

  it("refuses a folder that is not a workspace before listening", () => {
    const r = runCli(["report", "--serve", "--port", "0", "--root", "/nonexistent-aop-dir"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error workspace_not_found: --root \/nonexistent-aop-dir does not exist/m);
  });
});
