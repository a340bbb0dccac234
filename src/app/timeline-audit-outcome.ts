// A timeline audit's outcome as it crosses from DRIFT_006's worker thread (timeline-audit-pool.ts):
// the audit, or what auditing threw — an AopError whole (its body: code, message, details, hint), the
// same error this thread's audit throws; anything else its message, which is what a failed check reports.
import { AopError, type ErrorBody } from "../core/errors.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { auditTimeline, type TimelineAudit } from "../domains/replay/index.js";

export type SettledAudit = { audit: TimelineAudit } | { aopError: ErrorBody } | { error: string };

export async function settleAudit(layout: WorkspaceLayout, runId: string): Promise<SettledAudit> {
  try {
    return { audit: await auditTimeline(layout, runId) };
  } catch (err) {
    if (err instanceof AopError) return { aopError: err.toBody() };
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

export function reviveAudit(settled: SettledAudit): TimelineAudit | Error {
  if ("audit" in settled) return settled.audit;
  if ("aopError" in settled) return AopError.fromBody(settled.aopError);
  return new Error(settled.error);
}
