// A gates.run call's own attributes and its steps as child spans (docs/otel.md, "Gate runs"). The verdict
// is the one recorded when the gate ran: the timeline's result, or an evidence file its chain still
// vouches for — never the contents of a file edited since it was chained. Pure.
import { stepOutcome, type EvidenceTrust, type GateEvidence, type StepResult } from "../evidence/index.js";
import type { TimelineEntry } from "../replay/index.js";
import { AOP, GATE_VERDICT, OTEL, SPAN_NAME, STEP_ERROR } from "./semconv.js";
import { stepSpanId } from "./span-ids.js";
import type { AttributeValue, RunIds, SpanRecord } from "./span-record.js";

/** A gate run's evidence file as the export found it. */
export interface GateEvidenceView {
  /** From the file's name, which the store gave it (not from its contents). */
  mode: string;
  /** Workspace-relative. */
  evidence_path: string;
  /** The contents, or null when they cannot be read as gate evidence. */
  evidence: GateEvidence | null;
  /** Whether the file still hashes to its chain entry (evidence-trust.ts). */
  trust: EvidenceTrust["status"];
}

/**
 * A gate run that executed its steps and wrote evidence: a success, a failed gate (`gate_failed`), or a
 * run whose chain append failed afterwards (`evidence_chain_*`: the evidence stays, unchained). A replayed
 * call returns the recorded result and runs nothing.
 */
export function ranGate(entry: TimelineEntry): boolean {
  if (entry.tool_name !== "gates.run" || entry.idempotency_status === "replay" || entry.feature_id === null) return false;
  if (entry.result === "ok") return true;
  return entry.error_code === "gate_failed" || (entry.error_code?.startsWith("evidence_chain_") ?? false);
}

/** The verdict the timeline recorded: a gate that failed answers gate_failed, one that passed answers ok. */
function recordedVerdict(entry: TimelineEntry): "pass" | "fail" | null {
  if (entry.result === "error") return entry.error_code === "gate_failed" ? GATE_VERDICT.fail : null;
  return GATE_VERDICT.pass;
}

/**
 * The verdict to export. A recorded failure is final. Otherwise an evidence file not known to be modified
 * decides (timelines written before gate_failed existed recorded failed gates as ok, so `ok` alone does
 * not prove a pass when a trustworthy file says fail); a modified file, or none, leaves the timeline's.
 */
function gateVerdict(entry: TimelineEntry, found: GateEvidenceView | null): string | null {
  const recorded = recordedVerdict(entry);
  if (recorded === GATE_VERDICT.fail) return recorded;
  const overall = found !== null && found.trust !== "modified" ? found.evidence?.overall : undefined;
  return typeof overall === "string" ? overall : recorded;
}

/**
 * Add the gate's own fields to its call's span, and build one child span per step — none from a file
 * modified after it was chained: its step results are no longer the ones the gate produced.
 */
export function gateSpans(callSpan: SpanRecord, entry: TimelineEntry, found: GateEvidenceView | null, run: RunIds): SpanRecord[] {
  const attributes = callSpan.attributes;
  if (found !== null) attributes[AOP.gateMode] = found.mode;
  const trusted = found !== null && found.trust !== "modified" ? found.evidence : null;
  if (trusted !== null && typeof trusted.profile === "string") attributes[AOP.gateProfile] = trusted.profile;
  const verdict = gateVerdict(entry, found);
  if (verdict !== null) attributes[AOP.gateOverall] = verdict;
  if (found !== null) {
    attributes[AOP.gateEvidencePath] = found.evidence_path;
    attributes[AOP.evidenceStatus] = found.trust;
  }
  if (trusted === null) return [];
  const gateStart = Date.parse(trusted.started_at);
  const fallback = Number.isNaN(gateStart) ? callSpan.startMs : gateStart;
  return trusted.step_results.map((step, index) => stepSpan(step, index, callSpan, entry, run, fallback));
}

function stepSpan(step: StepResult, index: number, parent: SpanRecord, entry: TimelineEntry, run: RunIds, fallbackMs: number): SpanRecord {
  const started = typeof step.started_at === "string" ? Date.parse(step.started_at) : NaN;
  const finished = typeof step.finished_at === "string" ? Date.parse(step.finished_at) : NaN;
  const startMs = Number.isNaN(started) ? fallbackMs : started;
  const endMs = Number.isNaN(finished) ? startMs : Math.max(finished, startMs);
  const name = typeof step.name === "string" ? step.name : `step ${index}`;
  const attributes: Record<string, AttributeValue> = { [AOP.stepName]: name };
  if (Array.isArray(step.cmd) && step.cmd.every((a) => typeof a === "string")) attributes[OTEL.processCommandArgs] = step.cmd;
  if (typeof step.exit_code === "number") attributes[OTEL.processExitCode] = step.exit_code;
  attributes[AOP.stepAttempts] = typeof step.attempts === "number" ? step.attempts : 0;
  attributes[AOP.stepTimedOut] = step.timed_out === true;
  attributes[AOP.stepSkipped] = step.skipped === true;
  if (typeof step.skip_reason === "string") attributes[AOP.stepSkipReason] = step.skip_reason;
  if (typeof step.log_sha256 === "string") attributes[AOP.stepLogSha256] = step.log_sha256;
  // Read from a file: loose values count as they would in a written result.
  const failed = stepOutcome({ skipped: step.skipped === true, timed_out: step.timed_out === true, exit_code: typeof step.exit_code === "number" ? step.exit_code : null }) === "fail";
  let error: string | null = null;
  if (failed) {
    attributes[OTEL.errorType] = step.timed_out === true ? STEP_ERROR.timeout : STEP_ERROR.exitCode;
    error = step.timed_out === true ? "timed out" : typeof step.exit_code === "number" ? `exit code ${step.exit_code}` : "ended by a signal";
  }
  const spanId = stepSpanId(run.workspaceId, entry.run_id, entry.sequence, index);
  return { traceId: run.traceId, spanId, parentSpanId: parent.spanId, name: SPAN_NAME.step(name), startMs, endMs, attributes, error };
}
