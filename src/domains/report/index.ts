// The report domain's public surface: building a report of the workspace, writing it as one HTML
// file, serving it live, and comparing two runs. Pure data modules (codec, stats, lanes, waterfall,
// filters, diff) are shared with the page under page/. See docs/report.md.
export { buildReport, type ReportOptions, type ReportPorts } from "./build-report.js";
export { diffRuns, type RunDiff } from "./diff.js";
export type { LedgerReader } from "./gather-ledger.js";
export { renderReportHtml } from "./html-page.js";
export { loadPageAssets } from "./page-assets.js";
export { defaultReportPath, writeReportFile } from "./report-file.js";
export { serveReport } from "./report-server.js";
export type { TimelineRecord } from "./timeline-codec.js";
export { requireWorkspace } from "./workspace-guard.js";
