// The report as one HTML document: CSS and the page script inline, the data as embedded JSON, and a
// Content-Security-Policy that forbids every network request (docs/report.md). Pure.
import { createHash } from "node:crypto";
import { embedJson } from "./embed-json.js";
import type { ReportData } from "./report-types.js";

export interface PageAssets {
  script: string;
  css: string;
}

export type PageMode = "file" | "served";

function sha256Source(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * Only the page's own script and style (by hash) run; nothing may be fetched, framed, posted or used as
 * a base. A served page may also talk to the server that served it (live entries).
 */
export function contentSecurityPolicy(assets: PageAssets, mode: PageMode): string {
  const directives = [
    "default-src 'none'",
    `script-src ${sha256Source(assets.script)}`,
    `style-src ${sha256Source(assets.css)}`,
    "img-src data:",
    mode === "served" ? "connect-src 'self'" : null,
    "base-uri 'none'",
    "form-action 'none'",
  ];
  return directives.filter((d): d is string => d !== null).join("; ");
}

/** The policy a served page is sent with: also never framed (a directive a <meta> policy cannot carry). */
export function headerPolicy(assets: PageAssets): string {
  return `${contentSecurityPolicy(assets, "served")}; frame-ancestors 'none'`;
}

function assertInert(name: string, text: string, closing: RegExp): void {
  // Built by us, but checked anyway: a stray closing tag would end the element and let text run as markup.
  if (closing.test(text) || text.includes("<!--")) throw new Error(`the page ${name} contains a sequence that would end its element`);
}

export function renderReportHtml(data: ReportData, assets: PageAssets, mode: PageMode): string {
  assertInert("script", assets.script, /<\/script/i);
  assertInert("stylesheet", assets.css, /<\/style/i);
  const csp = contentSecurityPolicy(assets, mode);
  return (
    "<!doctype html>\n" +
    '<html lang="en"><head><meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">\n` +
    '<meta name="referrer" content="no-referrer">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    "<title>aop report</title>\n" +
    `<style>${assets.css}</style>\n` +
    '</head><body><noscript>This report is drawn by its inline script; allow scripts for this file to see it.</noscript>\n' +
    `<script type="application/json" id="aop-report-data">${embedJson(data)}</script>\n` +
    `<script>${assets.script}</script>\n` +
    "</body></html>\n"
  );
}
