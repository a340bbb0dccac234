// Deterministic trace and span ids (docs/otel.md, "Ids"): re-exporting a run yields the same ids,
// so a backend that receives a span twice sees one span. Pure.
import { sha256Hex } from "../../core/hash.js";

/** First 16 bytes of sha256("aop:" + run_id), as 32 lowercase hex characters. */
export function traceIdFor(runId: string): string {
  return sha256Hex(`aop:${runId}`).slice(0, 32);
}

/** An entry's span: first 8 bytes of sha256(run_id + ":" + sequence), as 16 lowercase hex characters. */
export function entrySpanId(runId: string, sequence: number): string {
  return sha256Hex(`${runId}:${sequence}`).slice(0, 16);
}

// The spans aop adds around entries hash inputs that no sequence can produce (a sequence is digits).

/** The run's root span (invoke_agent / invoke_workflow). */
export function rootSpanId(runId: string): string {
  return sha256Hex(`${runId}:root`).slice(0, 16);
}

/** A Claude Code subagent's span, parent of its calls. */
export function agentSpanId(runId: string, agentId: string): string {
  return sha256Hex(`${runId}:agent:${agentId}`).slice(0, 16);
}

/** The span of step `index` (0-based, evidence order) of the gate run recorded at `sequence`. */
export function stepSpanId(runId: string, sequence: number, index: number): string {
  return sha256Hex(`${runId}:${sequence}:step:${index}`).slice(0, 16);
}
