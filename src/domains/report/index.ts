// The report domain's public surface: building a report of the workspace, writing it as one HTML
// file, serving it live, and comparing two runs. Pure data modules (codec, stats, lanes, waterfall,
// filters, diff) are shared with the page under page/. See docs/report.md.
export { buildReport, type BuiltReport, type ReportOptions, type ReportPorts } from "./build-report.js";
export { diffRuns, type DiffRow, type RunDiff } from "./diff.js";
export { DEFAULT_BUDGET, type RunBudget } from "./gather-runs.js";
export type { LedgerLookup, LedgerReader, LedgerRecordView } from "./gather-ledger.js";
export { renderReportHtml, type PageAssets } from "./html-page.js";
export { loadPageAssets } from "./page-assets.js";
export { defaultReportPath, writeReportFile } from "./report-file.js";
export { serveReport, type ServeSetup } from "./report-server.js";
export type { ReportData, RunView } from "./report-types.js";
export { decodeTimeline, entryTimestamp, type ReportEntry, type TimelineRecord } from "./timeline-codec.js";
export { requireWorkspace } from "./workspace-guard.js";
