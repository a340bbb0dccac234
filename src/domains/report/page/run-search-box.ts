// The runs view's search box: every embedded run's entries matched as `aop search` matches steps
// (run-search.ts), newest first, each a link to its place in the timeline. The box lives across
// renders (it keeps its text and focus); results are rebuilt as the text changes.
import { searchRuns } from "../run-search.js";
import type { AppContext } from "./app-context.js";
import { badge, el, fill, table } from "./dom.js";
import { count, shortInstant } from "./format.js";

const CAP = 200;

export class RunSearchBox {
  readonly element: HTMLElement;
  private readonly input = el("input", { class: "run-search", attrs: { type: "search", placeholder: "search every run: tool, feature, error code, session, operation id…", "aria-label": "search every run" } });
  private readonly results = el("div", { class: "run-search-results" });

  constructor(private readonly app: AppContext) {
    this.element = el("div", { class: "run-search-box" }, this.input, this.results);
    let timer = 0;
    this.input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => this.update(), 120);
    });
  }

  update(): void {
    const query = this.input.value;
    if (query.trim() === "") {
      fill(this.results);
      return;
    }
    const store = this.app.store;
    const runs = store.order.flatMap((id) => {
      const run = store.runs.get(id)!;
      return run.encoded === null ? [] : [{ run_id: id, entries: store.entries(run) }];
    });
    const { hits, total } = searchRuns(runs, query, CAP);
    const rows = hits.map(({ run_id, entry }) => [
      shortInstant(new Date(entry.ts_ms).toISOString()),
      el("a", { attrs: { href: this.app.linkTo({ view: "timeline", run: run_id, seq: entry.sequence }) } }, `${run_id} #${entry.sequence}`),
      entry.tool_name,
      entry.feature_id ?? "",
      entry.result === "error" ? badge(entry.error_code ?? "error", "err") : "ok",
    ]);
    const summary = el("p", { class: "muted" }, total === 0 ? "no entry matches" : total > hits.length ? `${count(hits.length)} newest of ${count(total)} matching entries` : `${count(total)} matching entries`);
    fill(this.results, summary, ...(rows.length > 0 ? [table(["time", "entry", "tool", "feature", "result"], rows, { class: "grid run-search-hits" })] : []));
  }
}
