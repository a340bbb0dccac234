// Human rendering of the continuity doctor's report (docs/continuity.md): one finding a line behind a
// fixed-width severity tag, worst first, then the passed checks as [OK]; one block per workspace.
import type { Finding } from "../../../domains/doctor/index.js";
import type { ContinuityReport, WorkspaceReport } from "../../../domains/continuity/index.js";
import { worstFirst } from "../../../domains/continuity/index.js";
import type { Style } from "./style.js";
import { escapeInline } from "./escape.js";

const TAG_WIDTH = 11; // "[CRITICAL] " — every message starts in the same column

function tag(label: string, paint: (s: string) => string): string {
  const text = `[${label}]`;
  return paint(text) + " ".repeat(TAG_WIDTH - text.length);
}

function findingLine(finding: Finding, style: Style): string {
  const paint = finding.severity === "critical" ? style.red : finding.severity === "warning" ? style.yellow : style.cyan;
  // One finding, one line: a file name with a newline must not print a finding of its own.
  return tag(finding.severity.toUpperCase(), paint) + escapeInline(finding.message);
}

function workspaceLines(ws: WorkspaceReport, style: Style): string[] {
  return [...worstFirst(ws.findings).map((f) => findingLine(f, style)), ...ws.passed.map((p) => tag("OK", style.green) + escapeInline(p.message))];
}

function header(ws: WorkspaceReport, style: Style): string {
  return style.bold(`== ${ws.workspace}${ws.agent_id ? ` (agent ${ws.agent_id})` : ""} ==`);
}

/**
 * One workspace and nothing else to say: just its lines, as docs/continuity.md shows. Otherwise a header line per
 * workspace, the problems that belong to none first, skipped workspaces and a summary line last.
 */
export function renderContinuityReport(report: ContinuityReport, style: Style): string {
  const problems = worstFirst(report.problems).map((f) => findingLine(f, style));
  const only = report.workspaces.length === 1 && problems.length === 0 && report.skipped.length === 0 ? report.workspaces[0] : undefined;
  if (only) return workspaceLines(only, style).join("\n");
  const blocks: string[] = [];
  if (problems.length > 0) blocks.push(problems.join("\n"));
  for (const ws of report.workspaces) blocks.push([header(ws, style), ...workspaceLines(ws, style)].join("\n"));
  if (report.skipped.length > 0) blocks.push(report.skipped.map((s) => style.dim(`skipped ${escapeInline(s.workspace)}: ${escapeInline(s.reason)}`)).join("\n"));
  blocks.push(summaryLine(report));
  return blocks.join("\n\n");
}

function summaryLine(report: ContinuityReport): string {
  const n = report.workspaces.length;
  const count = (code: number) => report.workspaces.filter((w) => w.exit_code === code).length;
  const parts = [`${count(2)} critical`, `${count(1)} with warnings`, `${count(0)} healthy`];
  return `${n} workspace${n === 1 ? "" : "s"}: ${parts.join(" · ")}`;
}
