// One timeline entry as a span (docs/otel.md, "Mapping"): `execute_tool {tool_name}` ending at `ts`
// and lasting `latency_ms`, or a session marker's moment. A gate run's steps: gate-spans.ts. Pure.
import type { TimelineEntry } from "../replay/index.js";
import { sessionOf } from "../../catalog/timeline-entry.js";
import { AOP, MCP_TOOLS_CALL, OPERATION, OTEL, HTTP_TRANSPORT, SPAN_NAME, STDIO_TRANSPORT, TOOL_TYPE, isMcpToolName } from "./semconv.js";
import { entrySpanId } from "./span-ids.js";
import type { AttributeValue, RunIds, SpanRecord } from "./span-record.js";

/** Start and end (epoch ms) of an entry's call, or null when its `ts` is not a time. */
export function entryTimes(entry: TimelineEntry): { startMs: number; endMs: number } | null {
  const endMs = Date.parse(entry.ts);
  if (Number.isNaN(endMs)) return null;
  const latency = Number.isFinite(entry.latency_ms) && entry.latency_ms > 0 ? entry.latency_ms : 0;
  return { startMs: endMs - latency, endMs };
}

export function toolSpan(entry: TimelineEntry, run: RunIds, parentSpanId: string, times: { startMs: number; endMs: number }): SpanRecord {
  const served = entry.transport === "mcp" || entry.transport === "mcp-http";
  const attributes: Record<string, AttributeValue> = {
    [OTEL.genAiOperationName]: OPERATION.executeTool,
    [OTEL.genAiToolName]: entry.tool_name,
    [OTEL.genAiToolType]: served || isMcpToolName(entry.tool_name) ? TOOL_TYPE.extension : TOOL_TYPE.function,
  };
  // Claude Code's hook records its tool_use_id as the entry's operation_id, so one rule covers both.
  // A client's call id kept in the sidecar (`ext.tool_use_id`, DESIGN §21) wins over it.
  const callId = typeof entry.ext?.tool_use_id === "string" ? entry.ext.tool_use_id : entry.operation_id;
  if (callId !== null) attributes[OTEL.genAiToolCallId] = callId;
  const session = sessionOf(entry);
  if (session !== null) {
    attributes[OTEL.genAiConversationId] = session;
    attributes[OTEL.sessionId] = session;
  }
  if (served) {
    attributes[OTEL.mcpMethodName] = MCP_TOOLS_CALL;
    attributes[OTEL.networkTransport] = entry.transport === "mcp-http" ? HTTP_TRANSPORT : STDIO_TRANSPORT;
  }
  if (entry.result === "error") attributes[OTEL.errorType] = entry.error_code ?? "_OTHER";
  // A shell command's exit status, where the client told it (docs/agents.md, "Failed call").
  const exit = entry.ext?.exit_status;
  if (typeof exit === "number" && Number.isSafeInteger(exit)) attributes[OTEL.processExitCode] = exit;
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
  const session = sessionOf(entry);
  if (session !== null) {
    attributes[OTEL.genAiConversationId] = session;
    attributes[OTEL.sessionId] = session;
  }
  attributes[AOP.sequence] = entry.sequence;
  attributes[AOP.actorType] = entry.actor_type;
  // UserPromptSubmit records the prompt's hash (never the prompt).
  if (entry.request_hash !== null) attributes[AOP.requestHash] = entry.request_hash;
  return { traceId: run.traceId, spanId: entrySpanId(run.workspaceId, entry.run_id, entry.sequence), parentSpanId, name: entry.marker ?? entry.tool_name, startMs: atMs, endMs: atMs, attributes, error: null };
}
