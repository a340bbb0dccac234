// Text that reorders or hides what is read (docs/hardening.md): a tool name, a feature title and a
// checkpoint's summary and next action carrying U+202E and other bidi or invisible characters are shown
// on the report page as visible escapes (`\u202e`), in every view, in text and in tooltips.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, type Browser } from "../../../helpers/browser.js";
import { runCli } from "../../../helpers/cli.js";
import { tempDir, tempWorkspace } from "../../../helpers/tmp.js";

const HIDDEN = ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\ufeff"];
const TOOL = "Read\u202etxt.exe";
const TITLE = "Login\u2067 \u200bflow\ufeff";
const SUMMARY = "All tests pass\u202d (really)";
const ACTION = "ship\u2066 it\u200f";

let browser: Browser;
let file: string;
const RUN = "claude-s-bidi";

beforeAll(async () => {
  const root = tempWorkspace();
  const aop = (...args: string[]) => {
    const r = runCli(["--root", root, ...args]);
    if (r.code !== 0) throw new Error(`aop ${args.join(" ")}: ${r.stderr}`);
  };
  aop("feature", "init", "feat_a", "--title", TITLE);
  const event = { session_id: "s-bidi", transcript_path: "/nowhere", cwd: root, hook_event_name: "PostToolUse", tool_name: TOOL, tool_input: {}, tool_response: {}, tool_use_id: "t1" };
  expect(runCli(["hook", "claude"], { cwd: root, input: JSON.stringify(event), env: { CLAUDE_PROJECT_DIR: root } }).code).toBe(0);
  aop("checkpoint", "update", "builder", `--progress_summary=${SUMMARY}`, `--next_actions+=${ACTION}`);
  file = path.join(tempDir(), "report.html");
  aop("report", "--out", file);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** Everything the page shows: rendered text, tooltips and option labels. */
function shownText(page: Page): Promise<string> {
  return page.evaluate<string>(`[document.body.innerText, ...Array.from(document.querySelectorAll("[title]"), (e) => e.getAttribute("title")), ...Array.from(document.querySelectorAll("option"), (o) => o.label), document.title].join("\\n")`);
}

describe("the report page shows bidi and invisible characters, never obeys them", () => {
  it("in the timeline, the detail pane, features, checkpoints, tools and runs", async () => {
    const embedded = fs.readFileSync(file, "utf8");
    expect(embedded).toContain(TOOL); // the data holds the text as written; only what is shown is escaped
    const opened = await openPage(browser, pathToFileURL(file).href + `#run=${RUN}&seq=0`);
    const { page } = opened;
    const seen: string[] = [];
    seen.push(await shownText(page));
    expect(await page.locator('[data-testid="detail"] h2').textContent()).toBe("Read\\u202etxt.exe");
    for (const view of ["runs", "tools", "features", "checkpoints", "doctor", "diff"]) {
      await page.click(`nav button[data-view="${view}"]`);
      await page.waitForSelector(`#view-${view}`);
      seen.push(await shownText(page));
    }
    const all = seen.join("\n");
    for (const c of HIDDEN) expect(all.includes(c), `U+${c.charCodeAt(0).toString(16)} shown raw`).toBe(false);
    expect(all).toContain("Read\\u202etxt.exe");
    expect(all).toContain("Login\\u2067 \\u200bflow\\ufeff");
    expect(all).toContain("All tests pass\\u202d (really)");
    expect(all).toContain("ship\\u2066 it\\u200f");
    expect(opened.errors).toEqual([]);
    await page.close();
  });
});
