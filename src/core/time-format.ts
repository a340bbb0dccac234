// Human renderings of spans and durations ("36h", "5m ago", "1.2s"): one rule for every message and
// table (docs/foundation.md#ages). Pure.

/**
 * How long a span is, rounded down to its largest whole unit: seconds under a minute, minutes under
 * an hour, hours under two days (a day and a half reads as "36h", not "1d"), then days.
 */
export function formatSpan(ms: number): string {
  const s = Math.floor(Math.abs(ms) / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** "5m ago" for a past instant, "in 5m" for a future one (`ms` = now − then). */
export function formatAge(ms: number): string {
  return ms < 0 ? `in ${formatSpan(ms)}` : `${formatSpan(ms)} ago`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}
