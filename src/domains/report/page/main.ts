// The report page's controller: reads the embedded data, keeps the view state in the address fragment
// (deep links), switches views, handles j / k, and on a served page applies live updates.
import { emptyLink, formatHash, parseHash, VIEWS, type LinkState, type View } from "../deep-link.js";
import { applyFilter, isFiltering } from "../filters.js";
import type { FeaturesView, ReportData, RunView } from "../report-types.js";
import type { AppContext } from "./app-context.js";
import { DiffView } from "./diff-view.js";
import { el, fill, setText, shown } from "./dom.js";
import { shortInstant } from "./format.js";
import { LiveClient } from "./live.js";
import { RunSearchBox } from "./run-search-box.js";
import { RunStore, type RunState } from "./run-store.js";
import { checkpointsView, doctorView, featuresView, runsView, toolsView } from "./tables.js";
import { TimelineView } from "./timeline-view.js";

const VIEW_LABELS: Record<View, string> = { runs: "Runs", timeline: "Timeline", tools: "Tools", features: "Features", checkpoints: "Checkpoints", doctor: "Doctor", diff: "Diff" };

class App implements AppContext {
  readonly store: RunStore;
  readonly live: boolean;
  readonly fetchLedger: ((operationId: string) => void) | null;
  readonly features: FeaturesView;
  private state: LinkState = emptyLink();
  private readonly main = el("main");
  private readonly nav = el("nav");
  private readonly liveStatus = el("span", { class: "live-status" });
  private readonly timeline: TimelineView;
  private readonly diff: DiffView;
  private readonly runSearch: RunSearchBox;
  private readonly fixed = new Map<View, HTMLElement>();
  private readonly client: LiveClient | null;
  private readonly cursors = new Map<string, number>();
  private readonly loading = new Set<string>();
  private readonly sequenceIndex = new WeakMap<RunState, { version: number; map: Map<number, number> }>();
  private frame = 0;
  private ready = false;

  constructor(private readonly data: ReportData) {
    this.store = new RunStore(data);
    this.features = data.features;
    this.live = data.scope.live;
    for (const run of data.runs) if (run.cursor !== null) this.cursors.set(run.run_id, run.cursor);
    this.client = this.live ? new LiveClient({ entries: (e) => this.onEntries(e.run_id, e), runs: (r) => this.onRuns(r), reset: (id) => this.reload(id), status: (t) => setText(this.liveStatus, t) }) : null;
    this.fetchLedger = this.client ? (op) => void this.client!.ledger(op).then((v) => (this.store.rememberLedger(v), this.render()), () => undefined) : null;
    this.timeline = new TimelineView(this);
    this.diff = new DiffView(this);
    this.runSearch = new RunSearchBox(this);
    this.fixed.set("features", featuresView(data.features));
    this.fixed.set("checkpoints", checkpointsView(data.checkpoints));
    this.fixed.set("doctor", doctorView(data.doctor));
  }

  start(): void {
    document.title = `aop report — ${shown(this.data.workspace.name)}`;
    for (const view of VIEWS) {
      const button = el("button", { data: { view } }, VIEW_LABELS[view]);
      button.addEventListener("click", () => this.navigate({ view }));
      this.nav.append(button);
    }
    const header = el("header", null, el("h1", null, "aop report"), el("span", { class: "workspace", title: this.data.workspace.root }, this.data.workspace.name), this.nav, this.liveStatus);
    const footer = el(
      "footer",
      null,
      el("p", null, `aop ${this.data.aop_version} · generated ${shortInstant(this.data.generated_at)} · ${this.live ? "served from 127.0.0.1" : "offline file: this page makes no network requests"} · keys: j / k next / previous call, / search, Esc deselect`),
      ...this.data.notes.map((n) => el("p", { class: "note" }, n)),
    );
    document.body.append(header, this.main, footer);
    window.addEventListener("hashchange", () => this.route());
    document.addEventListener("keydown", (ev) => this.key(ev));
    this.route();
  }

  navigate(patch: Partial<LinkState>): void {
    const next = { ...this.state, ...patch };
    if (patch.run !== undefined && patch.run !== this.state.run && patch.seq === undefined) next.seq = null;
    this.state = next;
    const hash = formatHash(next);
    try {
      history.replaceState(null, "", hash === "" ? location.pathname + location.search : hash);
    } catch {
      // Some browsers refuse history changes on file:// pages; the view still follows.
    }
    this.render();
  }

  linkTo(patch: Partial<LinkState>): string {
    const base = location.href.split("#")[0]!;
    return base + formatHash({ ...emptyLink(), ...patch });
  }

  indexOfSequence(run: RunState, sequence: number): number | null {
    let cached = this.sequenceIndex.get(run);
    if (!cached || cached.version !== run.version) {
      const map = new Map<number, number>();
      this.store.entries(run).forEach((e, i) => map.set(e.sequence, i));
      cached = { version: run.version, map };
      this.sequenceIndex.set(run, cached);
    }
    return cached.map.get(sequence) ?? null;
  }

  private route(): void {
    const state = parseHash(location.hash);
    if (state.view === null) state.view = this.store.firstEmbedded() !== null ? "timeline" : "runs";
    if ((state.view === "timeline" || state.view === "tools") && state.run === null) state.run = this.store.firstEmbedded();
    this.state = state;
    this.render();
  }

  private render(): void {
    const s = this.state;
    for (const button of Array.from(this.nav.children) as HTMLElement[]) button.classList.toggle("active", button.dataset.view === s.view);
    let section: HTMLElement;
    const run = this.store.get(s.run);
    if (s.view === "timeline" && run) {
      this.timeline.show(s, run);
      section = this.timeline.element;
      this.ensureLive(run);
    } else if (s.view === "timeline") section = el("section", { class: "view" }, el("p", { class: "muted" }, s.run ? `No run '${s.run}' in this report.` : "No run has a timeline yet."));
    else if (s.view === "tools") {
      const matches = run ? applyFilter(this.store.entries(run), s.filter, s.filter.text.trim() ? this.store.haystacks(run) : undefined).matches : null;
      section = toolsView(this, s.run, matches, isFiltering(s.filter));
    } else if (s.view === "diff") {
      this.diff.show(s);
      section = this.diff.element;
    } else if (s.view === "runs") section = runsView(this, this.runSearch.element);
    else section = this.fixed.get(s.view!)!;
    if (this.main.firstElementChild !== section) fill(this.main, section);
    if (!this.ready) {
      this.ready = true;
      // Ready once the browser has drawn the first frame with the rows in it.
      requestAnimationFrame(() => {
        const root = document.documentElement;
        root.dataset.readyMs = performance.now().toFixed(1);
        root.dataset.rows = String(document.querySelectorAll(".rows .row:not([hidden])").length);
        root.dataset.ready = "true";
      });
    }
  }

  private key(ev: KeyboardEvent): void {
    const target = ev.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) {
      if (ev.key === "Escape") target.blur();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (this.state.view !== "timeline") return;
    if (ev.key === "j" || ev.key === "k") {
      ev.preventDefault();
      this.timeline.step(ev.key === "j" ? 1 : -1);
    } else if (ev.key === "/") {
      ev.preventDefault();
      (document.querySelector(".filter-text") as HTMLInputElement | null)?.focus();
    } else if (ev.key === "Escape") this.navigate({ seq: null });
  }

  private ensureLive(run: RunState): void {
    if (!this.client) return;
    const id = run.view.run_id;
    if (run.encoded === null) {
      void this.reload(id);
      return;
    }
    const cursor = this.cursors.get(id);
    if (cursor !== undefined) this.client.follow(id, cursor);
  }

  private async reload(runId: string): Promise<void> {
    if (!this.client || this.loading.has(runId)) return;
    this.loading.add(runId);
    try {
      const r = await this.client.timeline(runId);
      this.store.addRun(r.run, r.timeline);
      this.cursors.set(runId, r.cursor);
      this.render();
    } catch (err) {
      setText(this.liveStatus, `live: ${(err as Error).message}`);
    } finally {
      this.loading.delete(runId);
    }
  }

  private onEntries(runId: string, event: { cursor: number; chunk: Parameters<RunStore["append"]>[1] }): void {
    const run = this.store.get(runId);
    if (!run || run.encoded === null) return;
    this.cursors.set(runId, event.cursor);
    if (this.store.append(run, event.chunk) > 0) this.scheduleRender();
  }

  private onRuns(runs: RunView[]): void {
    let changed = false;
    for (const view of runs) {
      const known = this.store.get(view.run_id);
      if (!known) {
        this.store.addRun(view, null);
        changed = true;
        continue;
      }
      // The server's counts are the file's; the entries the page holds stay as they are.
      const v = known.view;
      if (v.entries !== view.entries || v.errors !== view.errors || v.last_entry_at !== view.last_entry_at) {
        Object.assign(v, { entries: view.entries, errors: view.errors, started_at: view.started_at, last_entry_at: view.last_entry_at, dropped_entries: view.dropped_entries, skipped_lines: view.skipped_lines });
        changed = true;
      }
    }
    if (changed && this.state.view === "runs") this.scheduleRender();
  }

  private scheduleRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }
}

const dataElement = document.getElementById("aop-report-data");
new App(JSON.parse(dataElement?.textContent ?? "null") as ReportData).start();
