// One timeline entry as spans (docs/otel.md, "Mapping"): `execute_tool {tool_name}` ending at `ts`
// and lasting `latency_ms`, plus one child span per step when the entry is a gate run. Pure.
import type { TimelineEntry } from "../replay/index.js";
import type { LatestEvidence, StepResult } from "../evidence/index.js";
import { AOP, MCP_TOOLS_CALL, OPERATION, OTEL, SPAN_NAME, STDIO_TRANSPORT, STEP_ERROR, TOOL_TYPE, isMcpToolName } from "./semconv.js";
import { entrySpanId, stepSpanId } from "./span-ids.js";
import type { AttributeValue, RunIds, SpanRecord } from "./span-record.js";

/** Start and end (epoch ms) of an entry's call, or null when its `ts` is not a time. */
export function entryTimes(entry: TimelineEntry): { startMs: number; endMs: number } | null {
  const endMs = Date.parse(entry.ts);
  if (Number.isNaN(endMs)) return null;
  const latency = Number.isFinite(entry.latency_ms) && entry.latency_ms > 0 ? entry.latency_ms : 0;
  return { startMs: endMs - latency, endMs };
}

export function toolSpan(entry: TimelineEntry, run: RunIds, parentSpanId: string, times: { startMs: number; endMs: number }): SpanRecord {
  const served = entry.transport === "mcp";
  const attributes: Record<string, AttributeValue> = {
    [OTEL.genAiOperationName]: OPERATION.executeTool,
    [OTEL.genAiToolName]: entry.tool_name,
    [OTEL.genAiToolType]: served || isMcpToolName(entry.tool_name) ? TOOL_TYPE.extension : TOOL_TYPE.function,
  };
  // Claude Code's hook records its tool_use_id as the entry's operation_id, so one rule covers both.
  if (entry.operation_id !== null) attributes[OTEL.genAiToolCallId] = entry.operation_id;
  if (entry.session_id !== null) {
    attributes[OTEL.genAiConversationId] = entry.session_id;
    attributes[OTEL.sessionId] = entry.session_id;
  }
  if (served) {
    attributes[OTEL.mcpMethodName] = MCP_TOOLS_CALL;
    attributes[OTEL.networkTransport] = STDIO_TRANSPORT;
  }
  if (entry.result === "error") attributes[OTEL.errorType] = entry.error_code ?? "_OTHER";
  attributes[AOP.sequence] = entry.sequence;
  if (entry.feature_id !== null) attributes[AOP.featureId] = entry.feature_id;
  attributes[AOP.actorType] = entry.actor_type;
  attributes[AOP.mutating] = entry.mutating;
  attributes[AOP.idempotencyStatus] = entry.idempotency_status;
  if (entry.request_hash !== null) attributes[AOP.requestHash] = entry.request_hash;
  return {
    traceId: run.traceId,
    spanId: entrySpanId(run.workspaceId, entry.run_id, entry.sequence),
    parentSpanId,
    name: SPAN_NAME.tool(entry.tool_name),
    startMs: times.startMs,
    endMs: times.endMs,
    attributes,
    error: entry.result === "error" ? (entry.error_code ?? "error") : null,
  };
}

/**
 * A Claude Code session marker (docs/agents.md) is a moment, not a call: a span of no duration named
 * as Claude Code labels the event (`SessionStart:startup`, `UserPromptSubmit`, `SubagentStop`, …).
 */
export function markerSpan(entry: TimelineEntry, run: RunIds, parentSpanId: string, atMs: number): SpanRecord {
  const attributes: Record<string, AttributeValue> = { [AOP.marker]: entry.marker ?? entry.tool_name };
  if (entry.session_id !== null) {
    attributes[OTEL.genAiConversationId] = entry.session_id;
    attributes[OTEL.sessionId] = entry.session_id;
  }
  attributes[AOP.sequence] = entry.sequence;
  attributes[AOP.actorType] = entry.actor_type;
  // UserPromptSubmit records the prompt's hash (never the prompt).
  if (entry.request_hash !== null) attributes[AOP.requestHash] = entry.request_hash;
  return { traceId: run.traceId, spanId: entrySpanId(run.workspaceId, entry.run_id, entry.sequence), parentSpanId, name: entry.marker ?? entry.tool_name, startMs: atMs, endMs: atMs, attributes, error: null };
}

/** A gate run that executed its steps (a replayed call returns the recorded result and runs nothing). */
export function ranGate(entry: TimelineEntry): boolean {
  return entry.tool_name === "gates.run" && entry.result === "ok" && entry.idempotency_status !== "replay" && entry.feature_id !== null;
}

/** Add the gate's own fields to its entry span, and build one child span per step. */
export function gateStepSpans(entrySpan: SpanRecord, entry: TimelineEntry, found: LatestEvidence, run: RunIds): SpanRecord[] {
  const evidence = found.evidence;
  entrySpan.attributes[AOP.gateMode] = found.mode;
  if (typeof evidence.profile === "string") entrySpan.attributes[AOP.gateProfile] = evidence.profile;
  if (typeof evidence.overall === "string") entrySpan.attributes[AOP.gateOverall] = evidence.overall;
  entrySpan.attributes[AOP.gateEvidencePath] = found.evidence_path;
  const gateStart = Date.parse(evidence.started_at);
  const fallback = Number.isNaN(gateStart) ? entrySpan.startMs : gateStart;
  return evidence.step_results.map((step, index) => stepSpan(step, index, entrySpan, entry, run, fallback));
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
  const failed = step.skipped !== true && (step.timed_out === true || step.exit_code !== 0);
  let error: string | null = null;
  if (failed) {
    attributes[OTEL.errorType] = step.timed_out === true ? STEP_ERROR.timeout : STEP_ERROR.exitCode;
    error = step.timed_out === true ? "timed out" : typeof step.exit_code === "number" ? `exit code ${step.exit_code}` : "ended by a signal";
  }
  const spanId = stepSpanId(run.workspaceId, entry.run_id, entry.sequence, index);
  return { traceId: run.traceId, spanId, parentSpanId: parent.spanId, name: SPAN_NAME.step(name), startMs, endMs, attributes, error };
}
