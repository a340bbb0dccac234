// Human rendering of a doctor report: worst first, one line per finding with its id and a fix line,
// then the summary. Pure.
import type { Finding } from "../../../domains/doctor/index.js";
import { summaryLine, worstFirst, type DoctorReport } from "../../../domains/doctor/index.js";
import type { Style } from "./style.js";
import { escapeInline } from "./escape.js";

function severityTag(severity: Finding["severity"], s: Style): string {
  const tag = severity.toUpperCase().padEnd(8);
  return severity === "critical" ? s.red(tag) : severity === "warning" ? s.yellow(tag) : s.cyan(tag);
}

export function renderDoctorReport(report: DoctorReport, s: Style): string {
  const lines: string[] = [];
  for (const f of worstFirst(report.findings)) {
    // One finding, one line: a file name with a newline must not print a finding of its own.
    lines.push(`${severityTag(f.severity, s)}  ${s.bold(escapeInline(f.id))}  ${escapeInline(f.message)}`);
    lines.push(`${" ".repeat(10)}${s.dim(`fix: ${escapeInline(f.remediation)}`)}`);
  }
  if (report.findings.length === 0) lines.push(s.green("no findings: the workspace is healthy"));
  lines.push("", summaryLine(report.summary));
  return lines.join("\n");
}
