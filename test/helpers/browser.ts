// Headless Chromium (Debian's package) driven by playwright-core, for the report page's tests and
// bench: an empty profile per launch, every network feature that could phone home switched off, and
// every request the page makes recorded.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: .ci/run installs Debian's chromium; locally: apt-get install -y --no-install-recommends chromium (or set CHROMIUM_PATH)`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "aop-chromium-profile-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1400, height: 900 } });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface OpenedPage {
  page: Page;
  /** Every request the page made, the document itself included. */
  requests: string[];
  /** Requests to anything but file: and data: URLs (aborted). */
  networkRequests(): string[];
  /** Uncaught errors and console errors. */
  errors: string[];
  dialogs: string[];
}

/** Open a page, recording (and for anything but file:/data:, aborting) every request. */
export async function openPage(browser: Browser, url: string, options: { allowOrigin?: string } = {}): Promise<OpenedPage> {
  const page = await browser.context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  const dialogs: string[] = [];
  const local = (u: string) => u.startsWith("file:") || u.startsWith("data:") || (options.allowOrigin !== undefined && u.startsWith(options.allowOrigin));
  await page.route("**/*", (route) => {
    const u = route.request().url();
    requests.push(u);
    return local(u) ? route.continue() : route.abort();
  });
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (m) => (m.type() === "error" ? errors.push(m.text()) : undefined));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url);
  // A selector, not waitForFunction: Playwright evaluates a predicate with the page's own eval, which
  // the page's Content-Security-Policy (no 'unsafe-eval') refuses.
  await page.waitForSelector("html[data-ready='true']", { state: "attached" });
  return { page, requests, networkRequests: () => requests.filter((u) => !local(u)), errors, dialogs };
}
