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

/** Start and end of a span that encloses others, widened as they arrive. */
export interface SpanWindow {
  start_ms: number;
  end_ms: number;
}

export function widen(window: SpanWindow | undefined, startMs: number, endMs: number): SpanWindow {
  if (!window) return { start_ms: startMs, end_ms: endMs };
  return { start_ms: Math.min(window.start_ms, startMs), end_ms: Math.max(window.end_ms, endMs) };
}
