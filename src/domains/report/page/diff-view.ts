// Two runs compared: calls aligned by operation id and order, with the added, missing and changed ones
// listed (the unchanged ones on request).
import { diffRuns, type DiffRow, type RunDiff } from "../diff.js";
import type { LinkState } from "../deep-link.js";
import type { ReportEntry } from "../timeline-codec.js";
import type { AppContext } from "./app-context.js";
import { el, fill, setText } from "./dom.js";
import { count } from "./format.js";
import { VirtualList } from "./virtual-list.js";

const ROW_HEIGHT = 24;

function resultText(e: ReportEntry | undefined): string {
  if (!e) return "";
  return e.result === "error" ? `ERROR ${e.error_code ?? ""}`.trim() : "ok";
}

export class DiffView {
  readonly element: HTMLElement;
  private readonly pickA = el("select", { attrs: { "aria-label": "run A" }, data: { side: "a" } });
  private readonly pickB = el("select", { attrs: { "aria-label": "run B" }, data: { side: "b" } });
  private readonly showSame = el("input", { attrs: { type: "checkbox", "aria-label": "show unchanged calls" } });
  private readonly summary = el("p", { class: "diff-summary", data: { testid: "diff-summary" } });
  private readonly list: VirtualList;
  private diff: RunDiff | null = null;
  private rows: DiffRow[] = [];
  private a: ReportEntry[] = [];
  private b: ReportEntry[] = [];
  private key = "";

  constructor(private readonly app: AppContext) {
    const change = () => app.navigate({ view: "diff", a: this.pickA.value || null, b: this.pickB.value || null });
    this.pickA.addEventListener("change", change);
    this.pickB.addEventListener("change", change);
    this.showSame.addEventListener("change", () => this.applyRows());
    this.list = new VirtualList(ROW_HEIGHT, { create: () => this.createRow(), render: (row, k) => this.renderRow(row, k) }, "vlist diff-rows");
    const header = el("div", { class: "row head" }, ...["", "A seq", "B seq", "tool", "A result", "B result", "what changed"].map((h, i) => el("span", { class: `d${i}` }, h)));
    this.element = el(
      "section",
      { class: "view", id: "view-diff" },
      el("h2", null, "Compare two runs"),
      el("div", { class: "filters" }, el("label", null, "A ", this.pickA), el("label", null, "B ", this.pickB), el("label", null, this.showSame, " show unchanged calls")),
      this.summary,
      el("div", { class: "rows-pane" }, header, this.list.element),
    );
  }

  show(state: LinkState): void {
    const embedded = this.app.store.order.filter((id) => this.app.store.runs.get(id)!.encoded !== null);
    const a = state.a ?? embedded[1] ?? embedded[0] ?? null;
    const b = state.b ?? embedded[0] ?? null;
    for (const [select, value] of [[this.pickA, a], [this.pickB, b]] as const) {
      fill(select, ...embedded.map((id) => {
        const option = el("option", null, id);
        option.value = id;
        return option;
      }));
      select.value = value ?? "";
    }
    const runA = this.app.store.get(a);
    const runB = this.app.store.get(b);
    if (!runA || !runB) {
      this.summary.textContent = "Pick two runs whose entries are in this report.";
      this.rows = [];
      this.list.setCount(0);
      return;
    }
    const key = `${a}\u0000${runA.version}\u0000${b}\u0000${runB.version}`;
    if (key !== this.key) {
      this.key = key;
      this.a = this.app.store.entries(runA);
      this.b = this.app.store.entries(runB);
      this.diff = diffRuns(this.a, this.b);
    }
    const s = this.diff!.summary;
    this.summary.textContent = `${count(s.changed)} changed · ${count(s.added)} added (only in B) · ${count(s.missing)} missing (only in A) · ${count(s.same)} unchanged` +
      (this.diff!.method === "positional" ? " · too different to align: paired by order" : "");
    this.applyRows();
  }

  private applyRows(): void {
    if (!this.diff) return;
    this.rows = this.showSame.checked ? this.diff.rows : this.diff.rows.filter((r) => r.kind !== "same");
    this.list.setCount(this.rows.length);
  }

  private createRow(): HTMLElement {
    const row = el("div", { class: "row" }, ...[0, 1, 2, 3, 4, 5, 6].map((i) => el("span", { class: `d${i}` })));
    row.addEventListener("click", () => {
      const r = this.rows[Number(row.dataset.k)];
      if (!r) return;
      const side = r.b !== null ? { run: this.pickB.value, e: this.b[r.b] } : { run: this.pickA.value, e: this.a[r.a!] };
      if (side.e) this.app.navigate({ view: "timeline", run: side.run, seq: side.e.sequence });
    });
    return row;
  }

  private renderRow(row: HTMLElement, k: number): void {
    const r = this.rows[k]!;
    const ea = r.a === null ? undefined : this.a[r.a];
    const eb = r.b === null ? undefined : this.b[r.b];
    row.dataset.k = String(k);
    row.dataset.kind = r.kind;
    row.className = `row diff-${r.kind}`;
    const cells = row.children;
    setText(cells[0]!, r.kind === "added" ? "+" : r.kind === "missing" ? "−" : r.kind === "changed" ? "~" : "=");
    setText(cells[1]!, ea ? String(ea.sequence) : "");
    setText(cells[2]!, eb ? String(eb.sequence) : "");
    setText(cells[3]!, (eb ?? ea)?.tool_name ?? "");
    setText(cells[4]!, resultText(ea));
    setText(cells[5]!, resultText(eb));
    setText(cells[6]!, r.changes.map((c) => `${c.field}: ${String(c.a)} → ${String(c.b)}`).join("; ") + (r.by === "operation_id" ? " (same operation id)" : ""));
  }
}
