// Human renderings of evidence: chain verification lines and the newest evidence of a feature.
import type { ChainResetRecord, ChainVerifyReport } from "../../../domains/evidence/index.js";
import { escapeControl } from "./escape.js";
import type { ToolResult } from "../../../catalog/tool-types.js";
import type { StepResult } from "../../../domains/evidence/index.js";
import { renderStepTable } from "./gate-format.js";
import { shortHash } from "./hash-format.js";
import type { Style } from "./style.js";
import { formatAge } from "../../../core/time-format.js";

const entries = (n: number) => `${n} ${n === 1 ? "entry" : "entries"}`;

/** One line per feature (plus the reason, indented, when the chain is invalid). */
export function renderVerifyLine(report: Omit<ChainVerifyReport, "failure_code"> & { failure_code: string | null }, style: Style): string {
  if (report.valid) {
    return `${style.green("✓")} ${report.feature_id}  ${style.green("valid")}  ${entries(report.entry_count)}  head ${shortHash(report.head_hash)}`;
  }
  const at = report.first_failure_sequence === null ? "" : `  sequence ${report.first_failure_sequence}`;
  const hashes = report.expected_hash !== null || report.actual_hash !== null ? `  expected ${shortHash(report.expected_hash)} actual ${shortHash(report.actual_hash)}` : "";
  return [
    `${style.red("✗")} ${report.feature_id}  ${style.red("INVALID")}  ${entries(report.entry_count)}${at}  ${report.failure_code}  ${report.artifact_rel_path ?? ""}${hashes}`,
    `    ${style.dim(report.failure_reason ?? "")}`,
  ].join("\n");
}

export function renderLatestEvidence(latest: ToolResult<"evidence.latest">, style: Style, nowMs: number): string {
  const e = latest.evidence;
  const verdict = e.overall === "pass" ? style.green("PASS") : style.red("FAIL");
  const finishedMs = typeof e.finished_at === "string" ? Date.parse(e.finished_at) : NaN;
  const when = Number.isNaN(finishedMs) ? "unknown" : `${e.finished_at} (${formatAge(nowMs - finishedMs)})`;
  const lines = [`${latest.feature_id}  ${latest.mode}${e.profile ? ` (profile ${e.profile})` : ""}  ${verdict}`, `finished  ${when}`, `evidence  ${latest.evidence_path}`];
  if (Array.isArray(e.step_results) && e.step_results.length > 0) lines.push("", renderStepTable(e.step_results as StepResult[], style));
  return lines.join("\n");
}

/** What `aop evidence reset-chain` did: where the old chain went, and what it said when it was set aside. */
export function renderChainReset(record: ChainResetRecord, style: Style): string {
  const p = record.previous;
  const said = p.valid ? `valid, ${entries(p.entry_count)}` : `INVALID (${p.failure_code}${p.first_failure_sequence === null ? "" : ` at sequence ${p.first_failure_sequence}`}), ${entries(p.entry_count)}`;
  return [
    `${style.bold(record.feature_id)}: chain started over; the old chain (${said}) and ${record.archived_files.length} file${record.archived_files.length === 1 ? "" : "s"} it covered are kept in ${record.archive}`,
    `  reason  ${escapeControl(record.reason)}`,
    `  record  ${record.archive.replace(/\/reset-[^/]+$/, "/resets.jsonl")}`,
    `the next gate run starts the new chain at entry 0`,
  ].join("\n");
}
