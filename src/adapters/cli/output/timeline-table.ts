// Renders timeline entries as aligned rows: sequence, time, ok/ERROR, M, idempotency badge, tool,
// feature, latency. Claude Code session markers show as `— <event>`, a subagent's rows as
// `↳ <agent type>: <tool>`, so its calls read as grouped under it. Pure.
import type { TimelineEntry } from "../../../domains/replay/index.js";
import { escapeInline } from "./escape.js";
import type { Style } from "./style.js";
import { renderTable, type Column } from "./table.js";

export const TIMELINE_COLUMNS: Column[] = [
  { header: "SEQ", align: "right" },
  { header: "TIME" },
  { header: "RESULT" },
  { header: "M" },
  { header: "IDEMP" },
  { header: "TOOL" },
  { header: "FEATURE" },
  { header: "LATENCY", align: "right" },
];

function badge(status: TimelineEntry["idempotency_status"], s: Style): string {
  if (status === "replay") return s.cyan("REPLAY");
  if (status === "mismatch") return s.red("MISMATCH");
  if (status === "new") return "new";
  return s.dim("-");
}

/** `HH:MM:SS.mmm` of an ISO timestamp (UTC), or the raw text when it is not one. */
function clockTime(ts: string): string {
  const m = /T(\d{2}:\d{2}:\d{2}(?:\.\d{3})?)/.exec(ts);
  return m ? m[1]! : ts;
}

function toolLabel(e: TimelineEntry, s: Style): string {
  const what = e.marker !== undefined ? s.dim(`— ${escapeInline(e.marker)}`) : escapeInline(e.tool_name);
  if (e.agent_id === undefined) return what;
  return `↳ ${escapeInline(e.agent_type ?? e.agent_id.slice(0, 8))}: ${what}`;
}

export function timelineRow(e: TimelineEntry, s: Style): string[] {
  // Entries recorded from agent hooks carry the agent's own names: escaped before they are styled.
  const result = e.result === "ok" ? s.green("ok") : s.red(escapeInline(`ERROR ${e.error_code ?? ""}`.trim()));
  return [String(e.sequence), escapeInline(clockTime(e.ts)), result, e.mutating ? "M" : "", badge(e.idempotency_status, s), toolLabel(e, s), escapeInline(e.feature_id ?? ""), `${e.latency_ms}ms`];
}

export function renderTimeline(entries: TimelineEntry[], s: Style): string {
  return renderTable(TIMELINE_COLUMNS, entries.map((e) => timelineRow(e, s)));
}
