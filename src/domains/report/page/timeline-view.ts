// A run's waterfall: the run's figures, the filters with their counts, the lanes overview, one
// virtualised row per call with its bar, and the detail pane of the selected call.
import { applyFilter, FACETS, isFiltering, type EntryFilter, type Facet, type FilterResult } from "../filters.js";
import type { LinkState } from "../deep-link.js";
import { runStats } from "../stats.js";
import type { ReportEntry } from "../timeline-codec.js";
import { formatDuration, placeBar, windowOf, type TimeWindow } from "../waterfall.js";
import type { AppContext } from "./app-context.js";
import { renderDetail } from "./detail-pane.js";
import { el, fill, setText } from "./dom.js";
import { clockTime, count, latency } from "./format.js";
import { barColor, OverviewCanvas } from "./overview-canvas.js";
import type { RunState } from "./run-store.js";
import { VirtualList } from "./virtual-list.js";

const ROW_HEIGHT = 24;
const FACET_LABELS: Record<Facet, string> = { tool: "tool", result: "result", idempotency: "idempotency", feature: "feature", mutating: "mutating" };

function optionLabel(facet: Facet, value: string): string {
  if (facet === "feature" && value === "") return "(no feature)";
  return value;
}

export class TimelineView {
  readonly element: HTMLElement;
  private readonly runPicker = el("select", { class: "run-picker", attrs: { "aria-label": "run" } });
  private readonly summary = el("div", { class: "run-summary" });
  private readonly selects = new Map<Facet, HTMLSelectElement>();
  private readonly text = el("input", { class: "filter-text", attrs: { type: "search", placeholder: "search: tool, session, operation id, error…", "aria-label": "search" } });
  private readonly counter = el("span", { class: "match-count", data: { testid: "match-count" } });
  private readonly zoomInfo = el("span", { class: "zoom-info" });
  private readonly overview: OverviewCanvas;
  private readonly list: VirtualList;
  private readonly detail = el("aside", { class: "detail", data: { testid: "detail" } });
  private readonly barHeader = el("span", { class: "c-bar" }, "waterfall");
  private run: RunState | null = null;
  private entries: ReportEntry[] = [];
  private result: FilterResult | null = null;
  private state: LinkState | null = null;
  private window: TimeWindow | null = null;
  private zoom: TimeWindow | null = null;
  private drawn = "";
  private textTimer = 0;

  constructor(private readonly app: AppContext) {
    this.runPicker.addEventListener("change", () => app.navigate({ view: "timeline", run: this.runPicker.value, seq: null }));
    const filters = el("div", { class: "filters" });
    for (const facet of FACETS) {
      const select = el("select", { data: { facet }, attrs: { "aria-label": FACET_LABELS[facet] } });
      select.addEventListener("change", () => this.setFilter({ [facet]: select.value === "\u0000any" ? null : select.value }));
      this.selects.set(facet, select);
      filters.append(el("label", null, FACET_LABELS[facet], select));
    }
    this.text.addEventListener("input", () => {
      clearTimeout(this.textTimer);
      this.textTimer = window.setTimeout(() => this.setFilter({ text: this.text.value }), 150);
    });
    const clear = el("button", { class: "small" }, "clear filters");
    clear.addEventListener("click", () => this.setFilter({ tool: null, result: null, idempotency: null, feature: null, mutating: null, text: "" }));
    const resetZoom = el("button", { class: "small" }, "reset zoom");
    resetZoom.addEventListener("click", () => this.setZoom(null));
    filters.append(this.text, clear, this.counter);
    this.overview = new OverviewCanvas((i) => this.select(i), (w) => this.setZoom(w));
    this.list = new VirtualList(ROW_HEIGHT, { create: () => this.createRow(), render: (row, k) => this.renderRow(row, k) }, "vlist rows");
    const header = el("div", { class: "row head" }, ...["seq", "time (UTC)", "lane", "tool", "result", "idem", "latency"].map((h, i) => el("span", { class: `c${i}` }, h)), this.barHeader);
    this.element = el(
      "section",
      { class: "view timeline", id: "view-timeline" },
      el("div", { class: "run-head" }, el("label", null, "run ", this.runPicker), this.summary),
      filters,
      el("div", { class: "zoom" }, this.zoomInfo, resetZoom),
      this.overview.element,
      el("div", { class: "split" }, el("div", { class: "rows-pane" }, header, this.list.element), this.detail),
    );
  }

  /** Show the run, filters and selection `state` names. Returns false when the run has no entries here. */
  show(state: LinkState, run: RunState): void {
    const runChanged = this.run !== run;
    this.run = run;
    this.state = state;
    if (runChanged) this.zoom = null;
    const key = `${run.view.run_id}\u0000${run.version}\u0000${JSON.stringify(state.filter)}`;
    if (key !== this.drawn) {
      this.drawn = key;
      this.entries = this.app.store.entries(run);
      const haystacks = state.filter.text.trim() !== "" ? this.app.store.haystacks(run) : undefined;
      this.result = applyFilter(this.entries, state.filter, haystacks);
      this.window = windowOf(this.entries);
      this.renderPicker();
      this.renderSummary();
      this.renderFilters(state.filter);
      this.list.setCount(this.result.matches.length);
    }
    if (this.text !== document.activeElement) this.text.value = state.filter.text;
    this.renderOverview();
    this.renderSelection(runChanged);
    // Widths are known only once the view is in the document: draw again in the next frame.
    if (!this.element.isConnected) requestAnimationFrame(() => {
      this.renderOverview();
      this.list.refresh();
    });
  }

  /** Move the selection by `delta` among the matching calls (j / k). */
  step(delta: number): void {
    if (!this.result || !this.run || this.result.matches.length === 0) return;
    const m = this.result.matches;
    const current = this.selectedIndex();
    let pos: number;
    if (current === null) pos = delta > 0 ? 0 : m.length - 1;
    else {
      const at = lowerBound(m, current);
      pos = m[at] === current ? at + delta : delta > 0 ? at : at - 1;
    }
    pos = Math.max(0, Math.min(m.length - 1, pos));
    this.select(m[pos]!);
  }

  private select(index: number): void {
    const e = this.entries[index];
    if (e) this.app.navigate({ seq: e.sequence });
  }

  private setFilter(patch: Partial<EntryFilter>): void {
    if (!this.state) return;
    this.app.navigate({ filter: { ...this.state.filter, ...patch } });
  }

  private setZoom(window: TimeWindow | null): void {
    this.zoom = window;
    this.renderOverview();
    this.list.refresh();
  }

  private selectedIndex(): number | null {
    if (!this.state || this.state.seq === null || !this.run) return null;
    return this.app.indexOfSequence(this.run, this.state.seq);
  }

  private renderPicker(): void {
    const ids = this.app.store.order;
    fill(this.runPicker, ...ids.map((id) => {
      const v = this.app.store.runs.get(id)!.view;
      const option = el("option", null, `${id} (${count(v.entries)}${v.embedded ? "" : ", not embedded"})`);
      option.value = id;
      return option;
    }));
    this.runPicker.value = this.run!.view.run_id;
  }

  private renderSummary(): void {
    const v = this.run!.view;
    const s = runStats(this.entries);
    const lanes = this.app.store.lanes(this.run!).lanes.length;
    const span = s.first_start_ms === null ? "–" : formatDuration(s.last_end_ms! - s.first_start_ms);
    fill(
      this.summary,
      el("span", { data: { testid: "run-entries" } }, `${count(s.entries)} entries`),
      ` · ${count(s.errors)} errors · ${count(s.replays)} replays · ${s.sessions} sessions · ${lanes} lanes · ${s.tools} tools · span ${span}`,
      v.note ? el("div", { class: "note" }, v.note) : null,
      !v.embedded ? el("div", { class: "note" }, this.app.live ? "loading entries from the server…" : "this run's entries are not in this file") : null,
    );
  }

  private renderFilters(filter: EntryFilter): void {
    const counts = this.result!.counts;
    for (const facet of FACETS) {
      const select = this.selects.get(facet)!;
      const values = [...counts[facet].entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      const chosen = filter[facet];
      if (chosen !== null && !counts[facet].has(chosen)) values.push([chosen, 0]);
      const any = el("option", null, `any`);
      any.value = "\u0000any";
      fill(select, any, ...values.map(([value, n]) => {
        const option = el("option", null, `${optionLabel(facet, value)} (${count(n)})`);
        option.value = value;
        return option;
      }));
      select.value = chosen ?? "\u0000any";
    }
    const total = this.entries.length;
    const shown = this.result!.matches.length;
    this.counter.textContent = isFiltering(filter) ? `${count(shown)} of ${count(total)} entries` : `${count(total)} entries`;
  }

  private renderOverview(): void {
    if (!this.run || !this.result) return;
    const window = this.zoom ?? this.window;
    this.zoomInfo.textContent = this.zoom ? `zoomed to ${formatDuration(this.zoom.to_ms - this.zoom.from_ms)} (drag on the overview to zoom)` : "drag on the overview to zoom";
    if (!window) {
      this.overview.element.hidden = true;
      return;
    }
    this.overview.element.hidden = false;
    const lanes = this.app.store.lanes(this.run);
    this.overview.update({ entries: this.entries, lanes: lanes.lanes, laneOf: lanes.laneOf, matches: this.result.matches, window, selected: this.selectedIndex() });
  }

  private renderSelection(runChanged: boolean): void {
    const index = this.selectedIndex();
    const entry = index === null ? undefined : this.entries[index];
    if (entry && this.result) {
      const pos = lowerBound(this.result.matches, index!);
      if (this.result.matches[pos] === index) this.list.reveal(pos);
      else this.list.refresh();
    } else {
      if (runChanged) this.list.element.scrollTop = 0;
      this.list.refresh();
    }
    const lanes = this.run ? this.app.store.lanes(this.run) : null;
    const ledger = entry?.operation_id ? this.app.store.ledgerFor(entry.operation_id) : undefined;
    const features = this.app.features;
    renderDetail(
      this.detail,
      entry && this.run
        ? {
            runId: this.run.view.run_id, entry, lane: lanes?.lanes[lanes.laneOf[entry.index]!], link: this.app.linkTo({ view: "timeline", run: this.run.view.run_id, seq: entry.sequence }),
            ledger, fetchLedger: this.app.fetchLedger,
            evidenceChain: ledger?.evidence ? features.items.find((f) => f.feature_id === ledger.evidence!.feature_id)?.chain ?? null : null, integrityEnabled: features.integrity_enabled,
            stateTrack: this.app.store.stateTrack(this.run.view.run_id),
          }
        : null,
    );
  }

  private createRow(): HTMLElement {
    const row = el("div", { class: "row", attrs: { role: "listitem" } }, ...[0, 1, 2, 3, 4, 5, 6].map((i) => el("span", { class: `c${i}` })), el("span", { class: "c-bar" }, el("span", { class: "bar" })));
    row.addEventListener("click", () => {
      const index = Number(row.dataset.index);
      if (Number.isInteger(index)) this.select(index);
    });
    return row;
  }

  private renderRow(row: HTMLElement, k: number): void {
    const index = this.result!.matches[k]!;
    const e = this.entries[index]!;
    const lanes = this.app.store.lanes(this.run!);
    row.dataset.index = String(index);
    row.dataset.seq = String(e.sequence);
    row.className = `row${e.result === "error" ? " error" : ""}${e.idempotency_status === "replay" ? " replay" : ""}${index === this.selectedIndex() ? " selected" : ""}`;
    const cells = row.children;
    setText(cells[0]!, String(e.sequence));
    setText(cells[1]!, clockTime(e.ts_ms));
    setText(cells[2]!, lanes.lanes[lanes.laneOf[index]!]?.label ?? "");
    setText(cells[3]!, e.tool_name);
    setText(cells[4]!, e.result === "error" ? `ERROR ${e.error_code ?? ""}`.trim() : "ok");
    setText(cells[5]!, e.idempotency_status === "none" ? "–" : e.idempotency_status === "new" ? "new" : e.idempotency_status.toUpperCase());
    setText(cells[6]!, latency(e.latency_ms));
    const bar = cells[7]!.firstElementChild as HTMLElement;
    const window = this.zoom ?? this.window;
    const width = (cells[7] as HTMLElement).clientWidth || this.barHeader.clientWidth || 200;
    if (window) {
      const p = placeBar(e, window, width);
      bar.style.left = `${p.x}px`;
      bar.style.width = `${p.w}px`;
      bar.style.background = barColor(e);
    }
  }
}

function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
