// The report's detail pane shows the state just after the step clicked and what that step changed
// (docs/report.md, "State at a step"), in headless Chromium, for a history made through the real CLI.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, type Browser } from "../../../helpers/browser.js";
import { runCli } from "../../../helpers/cli.js";
import { tempDir, tempWorkspace } from "../../../helpers/tmp.js";

const RUN = "run:page";
const OWNER = '<img src=x onerror="document.title=1">';
let browser: Browser;
let file: string;

beforeAll(async () => {
  const root = tempWorkspace();
  const call = (now: string, args: string[], refused = false) => {
    const r = runCli([...args, "--root", root, "--run-id", RUN], { env: { AOP_NOW: now } });
    if ((r.code === 0) === refused) throw new Error(`${args.join(" ")}: exit ${r.code} ${r.stderr}`);
  };
  call("2026-12-01T10:00:00.000Z", ["run", "start", "--new-run-id", RUN, "--owner", OWNER, "--ttl", "60"]); // 0
  call("2026-12-01T10:00:01.000Z", ["feature", "init", "login"]); // 1
  call("2026-12-01T10:00:02.000Z", ["feature", "set-status", "login", "blocked", "--expected-version", "9"], true); // 2: refused
  call("2026-12-01T10:05:00.000Z", ["feature", "set-status", "login", "blocked"]); // 3: after the lease ran out
  file = path.join(tempDir(), "report.html");
  const r = runCli(["report", "--root", root, "--out", file]);
  if (r.code !== 0) throw new Error(r.stderr);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const url = (hash: string) => pathToFileURL(file).href + hash;
const field = (path: string) => `[data-testid="detail"] section.state table.fields tr[data-field="${path}"] td`;

describe("the state at a step, in the report", () => {
  it("clicking a step shows the state after it and what it changed; a refused step changed nothing", async () => {
    const { page, errors, networkRequests } = await openPage(browser, url(`#run=${encodeURIComponent(RUN)}&seq=0`));
    await page.click('.rows .row[data-seq="3"]');
    const state = page.locator('[data-testid="detail"] section.state');
    expect(await state.locator("p").first().textContent()).toBe("set login to blocked (version 2)");
    expect(await state.locator("table.changes").textContent()).toBe("features.login.statusactive → blockedfeatures.login.version1 → 2lease.expiredfalse → true");
    expect(await page.textContent(field("features.login.status"))).toBe("blocked");
    expect(await page.textContent(field("lease.expired"))).toBe("true");

    await page.click('.rows .row[data-seq="2"]');
    expect(await state.locator("p").first().textContent()).toBe("refused (version_conflict): changed nothing");
    expect(await state.locator("table.changes").count()).toBe(0);
    expect(await page.textContent(field("features.login.status"))).toBe("active");
    expect(await page.textContent(field("features.login.version"))).toBe("1");
    expect(await page.textContent(field("lease.expired"))).toBe("false");
    // The owner an agent named is text, never markup.
    expect(await page.textContent(field("lease.owner"))).toBe(OWNER);
    expect(await page.locator('[data-testid="detail"] img').count()).toBe(0);
    expect(await page.title()).not.toBe("1");
    expect(errors).toEqual([]);
    expect(networkRequests()).toEqual([]);
  });
});
