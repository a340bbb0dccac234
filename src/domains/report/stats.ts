// Per-tool and per-run figures of a report: calls, errors, replays, latency percentiles, sessions, span.
// Pure; the page recomputes them for the entries its filters leave.
import { FLAG_ERROR, type EncodedTimeline, type ReportEntry } from "./timeline-codec.js";
import { compareText } from "../../core/compare-text.js";

export type StatsEntry = Pick<ReportEntry, "tool_name" | "result" | "idempotency_status" | "latency_ms" | "mutating" | "session_id" | "ts_ms">;

export interface ToolStats {
  tool_name: string;
  calls: number;
  errors: number;
  replays: number;
  mismatches: number;
  mutating_calls: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  total_ms: number;
}

export interface RunStats {
  entries: number;
  errors: number;
  replays: number;
  /** Distinct session ids (entries without one are not a session). */
  sessions: number;
  tools: number;
  /** Earliest call start (ts − latency) and latest end (ts), epoch ms; null without entries. */
  first_start_ms: number | null;
  last_end_ms: number | null;
}

/** Nearest-rank percentile of ascending values: the smallest value with at least p% of values at or below it. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(rank, 1)) - 1]!;
}

function each<E>(entries: readonly E[], indices: ArrayLike<number> | undefined, fn: (e: E) => void): void {
  if (indices === undefined) for (const e of entries) fn(e);
  else for (let i = 0; i < indices.length; i++) fn(entries[indices[i]!]!);
}

/** One row per tool, most calls first (ties by name). `indices` restricts to a subset (a filter's matches). */
export function toolStats(entries: readonly StatsEntry[], indices?: ArrayLike<number>): ToolStats[] {
  const groups = new Map<string, { row: ToolStats; latencies: number[] }>();
  each(entries, indices, (e) => {
    let g = groups.get(e.tool_name);
    if (!g) {
      g = { row: { tool_name: e.tool_name, calls: 0, errors: 0, replays: 0, mismatches: 0, mutating_calls: 0, p50_ms: 0, p95_ms: 0, max_ms: 0, total_ms: 0 }, latencies: [] };
      groups.set(e.tool_name, g);
    }
    const r = g.row;
    r.calls += 1;
    if (e.result === "error") r.errors += 1;
    if (e.idempotency_status === "replay") r.replays += 1;
    if (e.idempotency_status === "mismatch") r.mismatches += 1;
    if (e.mutating) r.mutating_calls += 1;
    r.total_ms += e.latency_ms;
    g.latencies.push(e.latency_ms);
  });
  const rows: ToolStats[] = [];
  for (const { row, latencies } of groups.values()) {
    const sorted = Float64Array.from(latencies).sort();
    row.p50_ms = percentile(sorted, 50);
    row.p95_ms = percentile(sorted, 95);
    row.max_ms = sorted[sorted.length - 1] ?? 0;
    row.total_ms = Math.round(row.total_ms * 1000) / 1000;
    rows.push(row);
  }
  return rows.sort((a, b) => b.calls - a.calls || compareText(a.tool_name, b.tool_name));
}

export function runStats(entries: readonly StatsEntry[], indices?: ArrayLike<number>): RunStats {
  const sessions = new Set<string>();
  const tools = new Set<string>();
  const out: RunStats = { entries: 0, errors: 0, replays: 0, sessions: 0, tools: 0, first_start_ms: null, last_end_ms: null };
  each(entries, indices, (e) => {
    out.entries += 1;
    if (e.result === "error") out.errors += 1;
    if (e.idempotency_status === "replay") out.replays += 1;
    if (e.session_id !== null) sessions.add(e.session_id);
    tools.add(e.tool_name);
    const start = e.ts_ms - Math.max(0, e.latency_ms);
    if (out.first_start_ms === null || start < out.first_start_ms) out.first_start_ms = start;
    if (out.last_end_ms === null || e.ts_ms > out.last_end_ms) out.last_end_ms = e.ts_ms;
  });
  out.sessions = sessions.size;
  out.tools = tools.size;
  return out;
}

/** The runs list's figures straight from the embedded columns, without decoding every entry. */
export function encodedRunStats(encoded: Pick<EncodedTimeline, "n" | "base_ms" | "t" | "lat" | "session" | "flags">): Pick<RunStats, "entries" | "errors" | "sessions" | "first_start_ms" | "last_end_ms"> {
  const sessions = new Set<number>();
  let errors = 0;
  let ms = encoded.base_ms;
  let first: number | null = null;
  let last: number | null = null;
  for (let i = 0; i < encoded.n; i++) {
    ms += encoded.t[i]!;
    const start = ms - Math.max(0, encoded.lat[i]!);
    if (first === null || start < first) first = start;
    if (last === null || ms > last) last = ms;
    if (encoded.session[i]! >= 0) sessions.add(encoded.session[i]!);
    if ((encoded.flags[i]! & FLAG_ERROR) !== 0) errors += 1;
  }
  return { entries: encoded.n, errors, sessions: sessions.size, first_start_ms: first, last_end_ms: last };
}
