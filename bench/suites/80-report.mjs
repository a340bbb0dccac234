// Report figures: `aop report` on a workspace with a 50,000-entry run (and the file size), and the page
// drawing its first rows in headless Chromium beside an empty page.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { aop, compareProcesses, dist, median, node, record, tempDir, REPO_ROOT } from "../lib.mjs";

const SUITE = "report";
const N = 50_000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

async function fill(layout, runId) {
  const { serializeEntry } = await dist("domains/replay/timeline-entry.js");
  const tools = ["Read", "Edit", "Bash", "Grep", "feature.get", "feature.set_status", "gates.run", "checkpoint.update"];
  const parts = [];
  for (let i = 0; i < N; i++) {
    const tool = tools[i % tools.length];
    const mutating = !["Read", "Grep", "feature.get"].includes(tool);
    parts.push(serializeEntry({
      ts: new Date(Date.UTC(2026, 2, 1, 9) + i * 40).toISOString(), run_id: runId, session_id: `session-${i % 3}`, actor_type: "agent", feature_id: i % 4 ? null : "feat_a",
      tool_name: tool, mutating, operation_id: mutating ? `op-${i}` : null, idempotency_status: mutating ? "new" : "none",
      request_hash: mutating ? `sha256:${i.toString(16).padStart(64, "0")}` : null, result: i % 13 ? "ok" : "error", error_code: i % 13 ? null : "tool_error", latency_ms: (i % 97) * 1.5,
    }, i));
  }
  fs.mkdirSync(layout.replayDir, { recursive: true });
  fs.writeFileSync(layout.timelineFile(runId), parts.join(""));
}

// A selector, not waitForFunction: Playwright evaluates a predicate with the page's own eval, which the
// report's Content-Security-Policy (no 'unsafe-eval') refuses.
async function pageReady(context, url, readySelector) {
  const page = await context.newPage();
  await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
  const start = performance.now();
  await page.goto(url);
  await page.waitForSelector(readySelector, { state: "attached" });
  const ms = performance.now() - start;
  await page.close();
  return ms;
}

export async function run() {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const root = tempDir();
  fs.mkdirSync(path.join(root, ".git"));
  const layout = new WorkspaceLayout(root);
  await fill(layout, "big");
  const out = path.join(root, "report.html");
  const jsonl = fs.statSync(layout.timelineFile("big")).size;

  // 1. the whole command vs a process that only reads and parses the same timeline
  const parse = `const fs=require("fs");for(const l of fs.readFileSync(${JSON.stringify(layout.timelineFile("big"))},"utf8").split("\\n"))if(l)JSON.parse(l)`;
  const cli = compareProcesses(aop(["report", "--root", root, "--out", out]), node(["-e", parse]), 7);
  record({ suite: SUITE, name: "aop report, workspace with a 50,000-entry run", value: cli.subjectMs, unit: "ms", baselineName: "node: read + parse the timeline", baselineValue: cli.baselineMs, target: { maxValue: 1500, label: "≤ 1.5 s" } });
  record({ suite: SUITE, name: "report file size (50,000 entries embedded)", value: fs.statSync(out).size / 1024 / 1024, unit: "MB", baselineName: "the run's timeline JSONL", baselineValue: jsonl / 1024 / 1024 });

  // 2. the page in headless Chromium: navigation start → first rows drawn, vs an empty page loaded
  if (!fs.existsSync(CHROMIUM)) {
    process.stdout.write(`[${SUITE}] skipped the browser figure: no Chromium at ${CHROMIUM} (.ci/run installs it)\n`);
    return fs.rmSync(root, { recursive: true, force: true });
  }
  const { chromium } = createRequire(path.join(REPO_ROOT, "package.json"))("playwright-core");
  const empty = path.join(root, "empty.html");
  fs.writeFileSync(empty, "<!doctype html><meta charset=utf-8><title>empty</title><p>empty");
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "aop-bench-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1400, height: 900 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const report = [];
    const blank = [];
    await pageReady(context, pathToFileURL(out).href, "html[data-ready='true']");
    for (let i = 0; i < 5; i++) {
      report.push(await pageReady(context, pathToFileURL(out).href, "html[data-ready='true']"));
      blank.push(await pageReady(context, pathToFileURL(empty).href, "p"));
    }
    record({ suite: SUITE, name: "page ready (first rows drawn), 50,000-entry run", value: median(report), unit: "ms", baselineName: "empty page loaded", baselineValue: median(blank), target: { maxValue: 1000, label: "≤ 1 s" } });
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
    fs.rmSync(root, { recursive: true, force: true });
  }
}
