// The page at scale, in headless Chromium: a 50,000-entry run stays usable (virtualised rows), and a
// workspace of 100 runs opens. Times are printed, never asserted (benchmarks judge speed).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceLayout } from "../../../../src/store/layout.js";
import { launchBrowser, openPage, type Browser } from "../../../helpers/browser.js";
import { runCli } from "../../../helpers/cli.js";
import { writeLargeRun } from "../../../helpers/large-runs.js";
import { tempDir, tempWorkspace } from "../../../helpers/tmp.js";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

function report(root: string): string {
  const file = path.join(tempDir(), "report.html");
  const r = runCli(["report", "--root", root, "--out", file]);
  if (r.code !== 0) throw new Error(r.stderr);
  return file;
}

describe("the report page at scale", () => {
  it("a 50,000-entry run draws its first rows, keeps few rows in the document, and scrolls to the last call", async () => {
    const root = tempWorkspace();
    const layout = new WorkspaceLayout(root);
    fs.mkdirSync(layout.aopDir);
    writeLargeRun(layout, "big", 50_000);
    const file = report(root);
    const opened = await openPage(browser, pathToFileURL(file).href);
    const { page } = opened;
    const readyMs = Number(await page.evaluate("document.documentElement.dataset.readyMs"));
    const rows = Number(await page.evaluate("document.documentElement.dataset.rows"));
    console.log(`50,000-entry run: first rows drawn ${readyMs.toFixed(0)} ms after navigation start; report file ${(fs.statSync(file).size / 1024 / 1024).toFixed(2)} MB`);
    expect(rows).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="match-count"]').textContent()).toBe("50,000 entries");
    expect(await page.locator(".rows .row").count()).toBeLessThan(200);
    await page.locator(".rows").evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(() => page.locator('.rows .row[data-seq="49999"]').count()).toBe(1);
    await page.selectOption('select[data-facet="result"]', "error");
    expect(await page.locator('[data-testid="match-count"]').textContent()).toBe(`${Math.ceil(50_000 / 13).toLocaleString("en-US")} of 50,000 entries`);
    expect(opened.networkRequests()).toEqual([]);
    await page.close();
  });

  it("a workspace of 100 runs lists them all", async () => {
    const root = tempWorkspace();
    const layout = new WorkspaceLayout(root);
    fs.mkdirSync(layout.aopDir);
    for (let r = 0; r < 100; r++) writeLargeRun(layout, `run-${String(r).padStart(3, "0")}`, 200, Date.UTC(2026, 2, 1) + r * 3_600_000);
    const file = report(root);
    const { page } = await openPage(browser, pathToFileURL(file).href + "#view=runs");
    console.log(`100 runs: page ready ${Number(await page.evaluate("document.documentElement.dataset.readyMs")).toFixed(0)} ms after navigation start`);
    expect(await page.locator("#view-runs tbody tr").count()).toBe(100);
    expect(await page.locator("#view-runs tbody tr").first().locator("td").first().textContent()).toBe("run-099");
    await page.close();
  });
});
