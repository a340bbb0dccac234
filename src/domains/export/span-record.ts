// The spans the export builds, in aop's own terms (times in epoch ms), before the official packages
// encode them. Pure.

export type AttributeValue = string | number | boolean | string[];

export interface SpanRecord {
  traceId: string;
  spanId: string;
  /** null for the run's root span. */
  parentSpanId: string | null;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  /** The status message of a failed operation (status ERROR); null when it did not fail (UNSET). */
  error: string | null;
}

/** What every span of one run shares: the workspace its ids include, and the run's trace. */
export interface RunIds {
  workspaceId: string;
  traceId: string;
}

/** Start and end of a span that encloses others, widened as they arrive. */
export interface SpanWindow {
  start_ms: number;
  end_ms: number;
}

/** Widen `window` (in place) to cover [startMs, endMs]. */
export function widen(window: SpanWindow, startMs: number, endMs: number): void {
  if (startMs < window.start_ms) window.start_ms = startMs;
  if (endMs > window.end_ms) window.end_ms = endMs;
}
