// Number and time formatting for the page.
import { formatCount } from "../../../core/format-count.js";

export function count(n: number): string {
  return formatCount(n);
}

/** "14:03:07.123" (UTC) of epoch ms. */
export function clockTime(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  return new Date(ms).toISOString().slice(11, 23);
}

/** "2026-03-01 14:03:07Z" of an ISO text, or the text itself. */
export function shortInstant(iso: string | null): string {
  if (iso === null || iso === "") return "–";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}Z` : iso;
}

export function latency(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? "–" : `${((part / whole) * 100).toFixed(part === whole || part === 0 ? 0 : 1)}%`;
}
