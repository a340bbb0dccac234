// The run at a glance: one track per lane, every call a bar from its start to its end, errors and
// replays in their own colours. Drawn on a canvas (50,000 bars in a few milliseconds); a click picks
// the call under the pointer, a drag zooms the waterfall to that span.
import type { Lane } from "../lanes.js";
import type { ReportEntry } from "../timeline-codec.js";
import { axisTicks, placeBar, type TimeWindow } from "../waterfall.js";
import { el, fill } from "./dom.js";

const COLORS = { ok: "#3b82f6", error: "#dc2626", replay: "#9333ea", mismatch: "#ea580c", dim: "#cbd5e1", selected: "#111827" };

export function barColor(e: ReportEntry): string {
  if (e.result === "error") return COLORS.error;
  if (e.idempotency_status === "replay") return COLORS.replay;
  if (e.idempotency_status === "mismatch") return COLORS.mismatch;
  return COLORS.ok;
}

const MAX_HEIGHT = 220;
const LABEL_MIN_TRACK = 12;

export interface OverviewInput {
  entries: ReportEntry[];
  lanes: Lane[];
  laneOf: Int32Array;
  /** Matching entries (others are drawn dimmed). */
  matches: Int32Array;
  window: TimeWindow;
  selected: number | null;
}

export class OverviewCanvas {
  readonly element: HTMLDivElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly labels: HTMLDivElement;
  private readonly axis: HTMLDivElement;
  private input: OverviewInput | null = null;
  private track = 14;
  private dragFrom: number | null = null;

  constructor(private readonly onPick: (index: number) => void, private readonly onZoom: (window: TimeWindow) => void) {
    this.canvas = el("canvas", { class: "overview-canvas", title: "click a bar to open the call; drag to zoom" });
    this.labels = el("div", { class: "lane-labels" });
    this.axis = el("div", { class: "axis" });
    this.element = el("div", { class: "overview" }, this.labels, el("div", { class: "overview-plot" }, this.canvas, this.axis));
    this.canvas.addEventListener("mousedown", (ev) => (this.dragFrom = ev.offsetX));
    this.canvas.addEventListener("mouseup", (ev) => this.release(ev));
    window.addEventListener("resize", () => this.draw());
  }

  update(input: OverviewInput): void {
    this.input = input;
    this.draw();
  }

  private draw(): void {
    const input = this.input;
    if (!input) return;
    const width = Math.max(100, this.canvas.parentElement?.clientWidth ?? 800);
    this.track = Math.max(3, Math.min(14, Math.floor(MAX_HEIGHT / Math.max(1, input.lanes.length))));
    const height = Math.max(this.track, input.lanes.length * this.track);
    const ratio = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const ctx = this.canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const matched = new Uint8Array(input.entries.length);
    for (let k = 0; k < input.matches.length; k++) matched[input.matches[k]!] = 1;
    const barHeight = Math.max(2, this.track - 3);
    // Dimmed (filtered out) bars first, so matching ones are drawn over them.
    for (const pass of [0, 1]) {
      for (let i = 0; i < input.entries.length; i++) {
        if (matched[i] !== pass) continue;
        const e = input.entries[i]!;
        const p = placeBar(e, input.window, width);
        if (p.w === 0) continue;
        ctx.fillStyle = pass === 0 ? COLORS.dim : barColor(e);
        ctx.fillRect(p.x, input.laneOf[i]! * this.track + 1, p.w, barHeight);
      }
    }
    if (input.selected !== null) {
      const e = input.entries[input.selected];
      if (e) {
        const p = placeBar(e, input.window, width);
        ctx.strokeStyle = COLORS.selected;
        ctx.lineWidth = 2;
        ctx.strokeRect(p.x - 1, input.laneOf[input.selected]! * this.track, p.w + 2, this.track);
      }
    }
    fill(
      this.labels,
      ...input.lanes.map((lane) =>
        el("div", { class: lane.parent === null ? "lane-label" : "lane-label sub", title: `${lane.label} — ${lane.entries} calls, ${lane.errors} errors` }, this.track >= LABEL_MIN_TRACK ? lane.label : ""),
      ),
    );
    for (const child of Array.from(this.labels.children) as HTMLElement[]) child.style.height = `${this.track}px`;
    fill(this.axis, ...axisTicks(input.window, width).map((t) => {
      const tick = el("span", { class: "tick" }, t.label);
      tick.style.left = `${t.x}px`;
      return tick;
    }));
  }

  private release(ev: MouseEvent): void {
    const input = this.input;
    const from = this.dragFrom;
    this.dragFrom = null;
    if (!input || from === null) return;
    const width = this.canvas.clientWidth;
    const span = input.window.to_ms - input.window.from_ms;
    const toTime = (x: number) => input.window.from_ms + (x / width) * span;
    if (Math.abs(ev.offsetX - from) > 4) {
      const a = toTime(Math.min(from, ev.offsetX));
      const b = toTime(Math.max(from, ev.offsetX));
      this.onZoom({ from_ms: a, to_ms: Math.max(b, a + 1) });
      return;
    }
    const lane = Math.floor(ev.offsetY / this.track);
    let best = -1;
    let bestDistance = Infinity;
    for (let k = 0; k < input.matches.length; k++) {
      const i = input.matches[k]!;
      if (input.laneOf[i] !== lane) continue;
      const p = placeBar(input.entries[i]!, input.window, width);
      const distance = ev.offsetX < p.x ? p.x - ev.offsetX : ev.offsetX > p.x + p.w ? ev.offsetX - p.x - p.w : 0;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    }
    if (best >= 0 && bestDistance <= 6) this.onPick(best);
  }
}
