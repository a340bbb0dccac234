// Where a call's bar goes on the waterfall: it starts at ts − latency_ms and lasts latency_ms (a call
// is recorded when it completes). Time windows, pixel placement, axis ticks and durations. Pure.
import type { ReportEntry } from "./timeline-codec.js";

export type BarEntry = Pick<ReportEntry, "ts_ms" | "latency_ms">;

export interface TimeWindow {
  from_ms: number;
  to_ms: number;
}

/** Bars narrower than this are widened so that a 0.2 ms call is still visible (and clickable). */
export const MIN_BAR_PX = 2;

export function barStart(e: BarEntry): number {
  return e.ts_ms - Math.max(0, e.latency_ms);
}

/** The span of the given entries' bars (all of them without `indices`); a single instant gets 1 ms. */
export function windowOf(entries: readonly BarEntry[], indices?: ArrayLike<number>): TimeWindow | null {
  let from = Infinity;
  let to = -Infinity;
  const n = indices === undefined ? entries.length : indices.length;
  for (let k = 0; k < n; k++) {
    const e = entries[indices === undefined ? k : indices[k]!]!;
    const start = barStart(e);
    if (start < from) from = start;
    if (e.ts_ms > to) to = e.ts_ms;
  }
  if (from === Infinity) return null;
  return to > from ? { from_ms: from, to_ms: to } : { from_ms: from, to_ms: from + 1 };
}

export interface Placement {
  x: number;
  w: number;
}

/** The bar's left edge and width in a track `width` pixels wide showing `window`; clipped to the track. */
export function placeBar(e: BarEntry, window: TimeWindow, width: number): Placement {
  const scale = width / (window.to_ms - window.from_ms);
  let x = (barStart(e) - window.from_ms) * scale;
  let w = Math.max(0, e.latency_ms) * scale;
  if (w < MIN_BAR_PX) {
    // Keep a widened bar inside the track, ending where the call ended when that fits.
    const end = x + w;
    w = Math.min(MIN_BAR_PX, width);
    x = Math.min(Math.max(0, end - w), Math.max(0, width - w));
  }
  const left = Math.max(0, x);
  const right = Math.min(width, x + w);
  return { x: left, w: Math.max(0, right - left) };
}

const STEPS_MS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000,
  3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000, 172_800_000, 604_800_000,
];

export interface Tick {
  x: number;
  /** Time since the window's start. */
  label: string;
}

/** Evenly spaced round ticks, about `approx` of them, labelled by elapsed time from the window's start. */
export function axisTicks(window: TimeWindow, width: number, approx = 6): Tick[] {
  const span = window.to_ms - window.from_ms;
  const step = STEPS_MS.find((s) => span / s <= approx) ?? Math.ceil(span / approx / 604_800_000) * 604_800_000;
  const ticks: Tick[] = [];
  for (let t = 0; t <= span; t += step) ticks.push({ x: (t / span) * width, label: t === 0 ? "0" : formatDuration(t) });
  return ticks;
}

/** "0.4 ms", "12 ms", "1.5 s", "2 min 5 s", "3 h 20 min", "2 d 4 h". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  const abs = Math.abs(ms);
  const sign = ms < 0 ? "−" : "";
  if (abs < 10) return `${sign}${trim(abs.toFixed(1))} ms`;
  if (abs < 1_000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) return `${sign}${trim((abs / 1_000).toFixed(abs < 10_000 ? 2 : 1))} s`;
  const pair = (big: number, bigUnit: string, small: number, smallUnit: string) => {
    const whole = Math.floor(abs / big);
    const rest = Math.floor((abs - whole * big) / small);
    return `${sign}${whole} ${bigUnit}${rest ? ` ${rest} ${smallUnit}` : ""}`;
  };
  if (abs < 3_600_000) return pair(60_000, "min", 1_000, "s");
  if (abs < 86_400_000) return pair(3_600_000, "h", 60_000, "min");
  return pair(86_400_000, "d", 3_600_000, "h");
}

function trim(fixed: string): string {
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}
