// Whether CURRENT_STATE.md was updated after the last session ran, or — with no transcript to compare
// with — how old it is. Pure: times are epoch milliseconds.

/** A session may go on briefly after its last state update (the closing reply): not stale within this. */
export const STALE_GRACE_MS = 10 * 60_000;
/** Without a transcript: older than this is a warning … */
export const FALLBACK_WARNING_AGE_MS = 24 * 3_600_000;
/** … and older than this an info. */
export const FALLBACK_INFO_AGE_MS = 4 * 3_600_000;

export type Staleness =
  | { verdict: "stale"; stateAgeMs: number; sessionAgeMs: number }
  | { verdict: "current"; stateAgeMs: number; sessionAgeMs: number }
  | { verdict: "old"; stateAgeMs: number; severity: "warning" | "info" }
  | { verdict: "fresh"; stateAgeMs: number };

export function judgeStaleness(input: { stateMtimeMs: number; transcriptMtimeMs?: number | undefined; nowMs: number }): Staleness {
  const stateAgeMs = Math.max(0, input.nowMs - input.stateMtimeMs);
  if (input.transcriptMtimeMs !== undefined) {
    const sessionAgeMs = Math.max(0, input.nowMs - input.transcriptMtimeMs);
    const behind = input.transcriptMtimeMs - input.stateMtimeMs;
    return { verdict: behind > STALE_GRACE_MS ? "stale" : "current", stateAgeMs, sessionAgeMs };
  }
  if (stateAgeMs > FALLBACK_WARNING_AGE_MS) return { verdict: "old", stateAgeMs, severity: "warning" };
  if (stateAgeMs > FALLBACK_INFO_AGE_MS) return { verdict: "old", stateAgeMs, severity: "info" };
  return { verdict: "fresh", stateAgeMs };
}
