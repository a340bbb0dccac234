// The report page in a real headless Chromium (Debian's package, driven by playwright-core), opened
// from file:// as a user would open the file aop wrote.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../../src/core/hash.js";
import { launchBrowser, openPage, type Browser } from "../../../helpers/browser.js";
import { runCli } from "../../../helpers/cli.js";
import { HOSTILE_TOOL, reportWorkspace, timelineLines } from "../../../helpers/report-workspace.js";
import { tempDir } from "../../../helpers/tmp.js";

let browser: Browser;
let root: string;
let layout: ReturnType<typeof reportWorkspace>["layout"];
let file: string;

beforeAll(async () => {
  ({ root, layout } = reportWorkspace());
  file = path.join(tempDir(), "report.html");
  const r = runCli(["report", "--root", root, "--out", file]);
  if (r.code !== 0) throw new Error(r.stderr);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const url = (hash = "") => pathToFileURL(file).href + hash;
const text = async (page: Page, selector: string) => (await page.locator(selector).first().textContent())?.trim() ?? "";

describe("the report page (file://, headless Chromium)", () => {
  it("loads and shows every view without a single network request", async () => {
    const opened = await openPage(browser, url());
    for (const view of ["runs", "timeline", "tools", "features", "checkpoints", "doctor", "diff"]) {
      await opened.page.click(`nav button[data-view="${view}"]`);
      await opened.page.waitForSelector("main section.view");
    }
    await opened.page.waitForTimeout(200);
    expect(opened.networkRequests()).toEqual([]);
    expect(opened.requests).toEqual([url()]);
    expect(opened.errors).toEqual([]);
    await opened.page.close();
  });

  it("lists every run with the entry and error counts of its timeline file", async () => {
    const { page } = await openPage(browser, url("#view=runs"));
    const rows = await page.locator("#view-runs tbody tr").all();
    const shown = await Promise.all(rows.map(async (row) => (await row.locator("td").allTextContents()).slice(0, 3)));
    const expected = fs.readdirSync(layout.replayDir).filter((f) => f.endsWith(".timeline.jsonl")).map((f) => {
      const lines = timelineLines(layout, f.replace(/\.timeline\.jsonl$/, ""));
      return [f.replace(/\.timeline\.jsonl$/, ""), String(lines.length), String(lines.filter((l) => l.result === "error").length)];
    });
    expect(shown.sort()).toEqual(expected.sort());
    await page.close();
  });

  it("each filter gives the count of matching lines in the file", async () => {
    const lines = timelineLines(layout, "run:kernel");
    const { page } = await openPage(browser, url("#run=run%3Akernel"));
    expect(await text(page, '[data-testid="match-count"]')).toBe(`${lines.length} entries`);
    const cases: [string, string, (l: Record<string, unknown>) => boolean][] = [
      ["tool", "feature.set_status", (l) => l.tool_name === "feature.set_status"],
      ["result", "error", (l) => l.result === "error"],
      ["idempotency", "replay", (l) => l.idempotency_status === "replay"],
      ["idempotency", "mismatch", (l) => l.idempotency_status === "mismatch"],
      ["feature", "feat_login", (l) => l.feature_id === "feat_login"],
      ["feature", "", (l) => l.feature_id === null],
      ["mutating", "yes", (l) => l.mutating === true],
      ["mutating", "no", (l) => l.mutating === false],
    ];
    for (const [facet, value, match] of cases) {
      await page.selectOption(`select[data-facet="${facet}"]`, value);
      const n = lines.filter(match).length;
      expect(n, `${facet}=${value}`).toBeGreaterThan(0);
      expect(await text(page, '[data-testid="match-count"]'), `${facet}=${value}`).toBe(`${n} of ${lines.length} entries`);
      expect(await page.locator(".rows .row:not(.head):not([hidden])").count()).toBe(n);
      await page.selectOption(`select[data-facet="${facet}"]`, "\u0000any");
    }
    await page.fill(".filter-text", "op-block");
    const ops = lines.filter((l) => l.operation_id === "op-block-0001").length;
    await expect.poll(() => text(page, '[data-testid="match-count"]')).toBe(`${ops} of ${lines.length} entries`);
    await page.close();
  });

  it("the detail pane shows every field of the entry a deep link names, and its ledger envelope", async () => {
    const lines = timelineLines(layout, "run:kernel");
    const replay = lines.find((l) => l.idempotency_status === "replay")!;
    const { page } = await openPage(browser, url(`#run=run%3Akernel&seq=${replay.sequence as number}`));
    for (const [key, value] of Object.entries(replay)) {
      const cell = await text(page, `[data-testid="detail"] table.fields tr[data-field="${key}"] td`);
      // A line without a session names its run there (DESIGN §21); the report shows that as no session.
      const shown = key === "session_id" && value === replay.run_id ? null : value;
      expect(cell, key).toBe(typeof shown === "string" ? shown : JSON.stringify(shown));
    }
    expect(await text(page, ".row.selected .c0")).toBe(String(replay.sequence));
    const envelope = JSON.parse(await text(page, ".ledger pre.envelope")) as { ok: boolean; data: { feature: { status: string } } };
    const onDisk = JSON.parse(fs.readFileSync(layout.ledgerRecord(sha256Hex("op-block-0001")), "utf8")) as { envelope_json: string };
    expect(envelope).toEqual(JSON.parse(onDisk.envelope_json));
    expect(envelope.data.feature.status).toBe("blocked");
    await page.close();
  });

  it("j and k step through the calls, and the address follows", async () => {
    const { page } = await openPage(browser, url("#run=agent-run"));
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    await expect.poll(() => page.evaluate("location.hash")).toMatch(/seq=1$/);
    expect(await text(page, '[data-testid="detail"] tr[data-field="sequence"] td')).toBe("1");
    await page.close();
  });

  it("a tampered evidence chain shows INVALID with its sequence and code", async () => {
    const evidence = layout.evidenceDir("feat_login");
    const gate = fs.readdirSync(evidence).filter((f) => f.startsWith("gate-")).sort()[1]!;
    const original = fs.readFileSync(path.join(evidence, gate), "utf8");
    fs.writeFileSync(path.join(evidence, gate), original.replace('"overall": "pass"', '"overall": "pazz"'));
    const tampered = path.join(tempDir(), "tampered.html");
    try {
      expect(runCli(["report", "--root", root, "--out", tampered]).code).toBe(0);
    } finally {
      fs.writeFileSync(path.join(evidence, gate), original);
    }
    const { page } = await openPage(browser, pathToFileURL(tampered).href + "#view=features");
    const cell = await text(page, '#view-features [data-chain="invalid"]');
    expect(cell).toMatch(/^INVALID at sequence 1 evidence_chain_hash_mismatch: /);
    await page.close();
  });

  it("a hostile tool name and feature title render as text and run nothing", async () => {
    const opened = await openPage(browser, url("#run=agent-run&seq=2"));
    const { page } = opened;
    expect(await text(page, '[data-testid="detail"] h2')).toBe(HOSTILE_TOOL);
    expect(await page.locator(`.rows .row[data-seq="2"] .c3`).textContent()).toBe(HOSTILE_TOOL);
    await page.click('nav button[data-view="features"]');
    expect(await page.locator("#view-features tbody td").nth(1).textContent()).toBe("</script><!-- <b>bold</b>\u2028");
    await page.waitForTimeout(200);
    expect(await page.locator("img, main script, b").count()).toBe(0);
    expect(await page.title()).toBe(`aop report — ${path.basename(root)}`);
    expect(opened.dialogs).toEqual([]);
    expect(opened.errors).toEqual([]);
    expect(opened.networkRequests()).toEqual([]);
    await page.close();
  });

  it("the runs view's search box finds entries across runs, newest first, as text, each linking to its place", async () => {
    const { page, errors } = await openPage(browser, url("#view=runs"));
    // Every line of every timeline whose error code is tool_error (the Bash calls of the agent run).
    const runs = fs.readdirSync(layout.replayDir).filter((f) => f.endsWith(".timeline.jsonl")).map((f) => f.replace(/\.timeline\.jsonl$/, ""));
    const expected = runs.flatMap((run) => timelineLines(layout, run).filter((l) => l.error_code === "tool_error").map((l) => `${run} #${l.sequence as number}`));
    expect(expected.length).toBeGreaterThan(0);
    await page.fill(".run-search", "tool_error");
    await page.waitForSelector(".run-search-hits");
    const links = await page.locator(".run-search-hits a").allTextContents();
    expect([...links].sort()).toEqual([...expected].sort());
    await page.click(".run-search-hits a >> nth=0");
    await page.waitForSelector(".row.selected");
    expect(page.url()).toMatch(/#.*seq=\d+/);
    // Back on the runs view the box keeps its text; hostile text in a searched field stays text.
    await page.click('nav button[data-view="runs"]');
    expect(await page.inputValue(".run-search")).toBe("tool_error");
    await page.fill(".run-search", "img");
    await page.locator(".run-search-hits td", { hasText: "onerror" }).first().waitFor();
    expect(await page.locator(".run-search-results img").count()).toBe(0);
    expect(await page.locator(".run-search-hits td").allTextContents()).toContain(HOSTILE_TOOL);
    expect(await page.title()).not.toBe("pwned");
    await page.fill(".run-search", "zzz-nothing-here");
    await page.locator(".run-search-results p", { hasText: "no entry matches" }).waitFor();
    expect(await text(page, ".run-search-results p")).toBe("no entry matches");
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the report page's other views", () => {
  it("the Diff view shows the comparison `aop report --diff` prints", async () => {
    const cli = runCli(["report", "--root", root, "--diff", "run:kernel", "agent-run", "--json"]);
    const { summary } = JSON.parse(cli.stdout) as { summary: { same: number; changed: number; added: number; missing: number } };
    const { page } = await openPage(browser, url("#view=diff&a=run%3Akernel&b=agent-run"));
    expect(await text(page, '[data-testid="diff-summary"]')).toBe(`${summary.changed} changed · ${summary.added} added (only in B) · ${summary.missing} missing (only in A) · ${summary.same} unchanged`);
    expect(await page.locator(".diff-rows .row:not([hidden])").count()).toBe(summary.changed + summary.added + summary.missing);
    await page.close();
  });

  it("Tools, Checkpoints and Doctor show the workspace's figures", async () => {
    const lines = timelineLines(layout, "run:kernel");
    const { page } = await openPage(browser, url("#view=tools&run=run%3Akernel"));
    const row = page.locator("#view-tools tbody tr", { hasText: "feature.set_status" });
    const cells = await row.locator("td").allTextContents();
    const calls = lines.filter((l) => l.tool_name === "feature.set_status");
    expect(cells.slice(0, 3)).toEqual(["feature.set_status", String(calls.length), String(calls.filter((l) => l.result === "error").length)]);
    await page.click('nav button[data-view="checkpoints"]');
    expect(await page.locator("#view-checkpoints tbody tr").first().locator("td").nth(5).textContent()).toMatch(/^Write the error model/);
    await page.click('nav button[data-view="doctor"]');
    const report = JSON.parse(fs.readFileSync(layout.doctorLastReport, "utf8")) as { findings: unknown[] };
    expect(await page.locator("#view-doctor tbody tr").count()).toBe(report.findings.length);
    await page.close();
  });
});
