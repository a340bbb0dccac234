// Builds the doctor report from findings and derives exit codes. Pure.
import { SEVERITY_RANK, type Finding, type Severity } from "./check-types.js";
import { compareText } from "../../core/compare-text.js";

export interface DoctorReport {
  ok: boolean;
  generated_at: string;
  summary: Record<Severity, number>;
  findings: Finding[];
}

function compareFindings(a: Finding, b: Finding): number {
  return compareText(a.id, b.id) || compareText(a.message, b.message) || compareText(a.refs.join("\u0000"), b.refs.join("\u0000"));
}

/** How many findings of each severity. */
export function summarize(findings: readonly Finding[]): Record<Severity, number> {
  const summary: Record<Severity, number> = { critical: 0, warning: 0, info: 0 };
  for (const f of findings) summary[f.severity] += 1;
  return summary;
}

/** Findings sorted by id (then message, refs) so the same workspace gives the same report. */
export function buildReport(findings: Finding[], generatedAt: string): DoctorReport {
  const sorted = [...findings].sort(compareFindings);
  const summary = summarize(sorted);
  return { ok: summary.critical === 0, generated_at: generatedAt, summary, findings: sorted };
}

/** Worst first, then by id: the order a person should read them in. */
export function worstFirst(findings: Finding[]): Finding[] {
  return [...findings].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || compareFindings(a, b));
}

/**
 * Exit code of `aop doctor`: without --strict 0; with --strict 2 if any critical, else 1 if any
 * finding at or above `strictFailsOn`, else 0. (3, "could not run", is decided by the caller.)
 */
export function doctorExitCode(report: DoctorReport, strict: boolean, strictFailsOn: "critical" | "warning"): number {
  if (!strict) return 0;
  if (report.summary.critical > 0) return 2;
  if (strictFailsOn === "warning" && report.summary.warning > 0) return 1;
  return 0;
}

export function summaryLine(summary: Record<Severity, number>): string {
  return `${summary.critical} critical · ${summary.warning} warning · ${summary.info} info`;
}
