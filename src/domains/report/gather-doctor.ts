// The doctor's last persisted report (.aop/runtime/doctor/last_report.json), read bounded and never
// re-run: running the doctor writes its report, and the report command writes nothing.
import type { WorkspaceLayout } from "../../store/layout.js";
import { describeRefusal, readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import type { DoctorFindingView, DoctorView } from "./report-types.js";
import { regularFileProblem } from "./regular-file.js";
import { compareText } from "../../core/compare-text.js";

const MAX_DOCTOR_REPORT_BYTES = READ_LIMITS.doctorReport;
const SEVERITY_ORDER: Record<string, number> = { critical: 0, warning: 1, info: 2 };

function absent(status: DoctorView["status"], problem: string | null): DoctorView {
  return { status, generated_at: null, ok: null, summary: null, findings: [], problem };
}

function finding(value: unknown): DoctorFindingView | null {
  if (value === null || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== "string" || typeof v.severity !== "string" || typeof v.message !== "string") return null;
  return {
    id: v.id,
    severity: v.severity,
    message: v.message,
    remediation: typeof v.remediation === "string" ? v.remediation : "",
    refs: Array.isArray(v.refs) ? v.refs.filter((r): r is string => typeof r === "string") : [],
  };
}

export function parseDoctorReport(text: string): DoctorView {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return absent("unreadable", `last_report.json is not valid JSON (${(err as Error).message})`);
  }
  if (value === null || typeof value !== "object" || !Array.isArray((value as Record<string, unknown>).findings)) {
    return absent("unreadable", "last_report.json is not a doctor report (no findings list)");
  }
  const v = value as Record<string, unknown>;
  const findings = (v.findings as unknown[]).map(finding).filter((f): f is DoctorFindingView => f !== null);
  findings.sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3) || compareText(a.id, b.id));
  const summary = { critical: 0, warning: 0, info: 0 };
  for (const f of findings) if (f.severity in summary) summary[f.severity as keyof typeof summary] += 1;
  return {
    status: "present",
    generated_at: typeof v.generated_at === "string" ? v.generated_at : null,
    ok: typeof v.ok === "boolean" ? v.ok : null,
    summary,
    findings,
    problem: null,
  };
}

export function gatherDoctor(layout: WorkspaceLayout): DoctorView {
  const { problem, missing } = regularFileProblem(layout.doctorLastReport);
  if (missing) return absent("absent", null);
  if (problem) return absent("unreadable", `last_report.json ${problem}`);
  const read = readBytesBounded(layout.doctorLastReport, MAX_DOCTOR_REPORT_BYTES);
  if (read.status === "missing") return absent("absent", null);
  if (read.status !== "ok") return absent("unreadable", `last_report.json ${describeRefusal(read)}`);
  return parseDoctorReport(read.bytes.toString("utf8"));
}
