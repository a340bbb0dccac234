// Takes the README's screenshot of a report page in headless Chromium (the browser the tests drive):
//   node scripts/report-screenshot.mjs <report.html> <out.png> [#fragment]
// e.g. after `npm run demo`: node scripts/report-screenshot.mjs /tmp/aop-demo-report.html docs/report-waterfall.png '#run=run%3Ademo&seq=2'
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [file, out, hash = ""] = process.argv.slice(2);
if (!file || !out) {
  process.stderr.write("usage: node scripts/report-screenshot.mjs <report.html> <out.png> [#fragment]\n");
  process.exit(2);
}
const { chromium } = createRequire(import.meta.url)("playwright-core");
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "aop-shot-profile-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, viewport: { width: 1280, height: 720 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await context.newPage();
  await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
  await page.goto(pathToFileURL(path.resolve(file)).href + hash);
  await page.waitForSelector("html[data-ready='true']", { state: "attached" });
  await page.waitForTimeout(100);
  await page.screenshot({ path: out });
  process.stdout.write(`${out}: ${fs.statSync(out).size} bytes\n`);
} finally {
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
