// The report tells the truth in colour (DESIGN §20), in headless Chromium: a failed gate is red, a
// doctor report with a warning is amber (never green), a chain that does not verify is never green, and
// an evidence file edited after it was chained is marked as such instead of standing as the verdict.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, type Browser } from "../../../helpers/browser.js";
import { runCli } from "../../../helpers/cli.js";
import { TAMPER_RUN, tamperedGateWorkspace, timelineLines } from "../../../helpers/report-workspace.js";
import { tempDir } from "../../../helpers/tmp.js";

// The stylesheet's colours (report.css, light scheme).
const RED = "rgb(220, 38, 38)";
const AMBER = "rgb(180, 83, 9)";
const GREEN = "rgb(21, 128, 61)";

let browser: Browser;
let ws: ReturnType<typeof tamperedGateWorkspace>;
let file: string;
let gateEntry: Record<string, unknown>;

beforeAll(async () => {
  ws = tamperedGateWorkspace();
  gateEntry = timelineLines(ws.layout, TAMPER_RUN).find((l) => l.tool_name === "gates.run" && l.error_code === "gate_failed")!;
  file = path.join(tempDir(), "report.html");
  const r = runCli(["report", "--root", ws.root, "--out", file]);
  if (r.code !== 0) throw new Error(r.stderr);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const url = (hash: string) => pathToFileURL(file).href + hash;
const color = (l: Locator) => l.evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).color);
const greens = (l: Locator) => l.evaluateAll((els, green) => els.filter((e) => e.ownerDocument.defaultView!.getComputedStyle(e).color === green).map((e) => e.textContent), GREEN);

describe("a failed gate, its edited evidence and the doctor's warning, as the report shows them", () => {
  it("the workspace is what the test says: the gate's entry is an error, the doctor found only a warning", () => {
    expect(gateEntry).toMatchObject({ result: "error", error_code: "gate_failed" });
    expect(fs.readFileSync(ws.evidence, "utf8")).toContain('"overall": "pass"');
    const report = JSON.parse(fs.readFileSync(ws.layout.doctorLastReport, "utf8")) as { ok: boolean; summary: Record<string, number> };
    expect(report).toMatchObject({ ok: true, summary: { critical: 0, warning: 1 } });
  });

  it("the failed gate's entry is red in the rows, the waterfall and the detail pane, and counts as an error of its run", async () => {
    const seq = gateEntry.sequence as number;
    const { page, errors } = await openPage(browser, url(`#run=${encodeURIComponent(TAMPER_RUN)}&seq=${seq}`));
    const row = page.locator(`.rows .row[data-seq="${seq}"]`);
    expect(await row.getAttribute("class")).toMatch(/\berror\b/);
    expect(await row.locator(".c4").textContent()).toBe("ERROR gate_failed");
    expect(await color(row.locator(".c4"))).toBe(RED);
    expect(await row.locator(".bar").evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).backgroundColor)).toBe(RED);
    const head = page.locator('[data-testid="detail"] .detail-head .badge').first();
    expect([await head.textContent(), await color(head)]).toEqual(["ERROR gate_failed", RED]);
    await page.click('nav button[data-view="runs"]');
    const runRow = page.locator("#view-runs tbody tr", { has: page.locator(`a[data-run="${TAMPER_RUN}"]`) });
    const errorsCell = runRow.locator("td").nth(2);
    const expected = timelineLines(ws.layout, TAMPER_RUN).filter((l) => l.result === "error").length;
    expect(await errorsCell.textContent()).toBe(String(expected));
    expect(await color(errorsCell.locator(".badge"))).toBe(RED);
    expect(await greens(page.locator("#view-runs *"))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the detail pane marks the gate's evidence file as modified after it was chained", async () => {
    const seq = gateEntry.sequence as number;
    const { page } = await openPage(browser, url(`#run=${encodeURIComponent(TAMPER_RUN)}&seq=${seq}`));
    const mark = page.locator('[data-testid="detail"] [data-trust="modified"]');
    expect(await mark.textContent()).toMatch(/modified after it was chained/);
    expect(await mark.textContent()).toContain(ws.layout.relative(ws.evidence));
    expect(await color(mark.locator(".badge"))).toBe(RED);
    await page.close();
  });

  it("the Doctor tab is amber, not green, for a report whose only finding is a warning", async () => {
    const { page } = await openPage(browser, url("#view=doctor"));
    const health = page.locator('#view-doctor [data-testid="doctor-health"]');
    expect(await health.textContent()).not.toBe("ok");
    expect(await color(health)).toBe(AMBER);
    const finding = page.locator("#view-doctor tbody tr", { hasText: "DRIFT_007_EVIDENCE_CHAIN_INVALID" });
    expect(await finding.locator(".badge").textContent()).toBe("warning");
    expect(await color(finding.locator(".badge"))).toBe(AMBER);
    expect(await greens(page.locator("#view-doctor *"))).toEqual([]);
    await page.close();
  });

  it("the feature's chain is invalid, its evidence marked modified, and nothing in its row is green", async () => {
    const { page } = await openPage(browser, url("#view=features"));
    const row = page.locator("#view-features tbody tr", { hasText: "feat_gate" });
    expect(await row.locator('[data-chain="invalid"]').textContent()).toMatch(/^INVALID at sequence 0 evidence_chain_hash_mismatch: /);
    const failing = row.locator('[data-gate="failing"]');
    expect(await failing.locator(".badge").first().textContent()).toBe("fail");
    expect(await color(failing.locator(".badge").first())).toBe(RED);
    const mark = failing.locator('[data-trust="modified"]');
    expect(await mark.textContent()).toMatch(/modified after it was chained/);
    // The gate that passed has intact evidence, but its chain does not verify: not green either.
    const fast = row.locator('[data-gate="fast"]');
    expect(await fast.locator(".badge").first().textContent()).toBe("pass");
    expect(await color(fast.locator(".badge").first())).toBe(AMBER);
    expect(await greens(row.locator("*"))).toEqual([]);
    await page.close();
  });
});
