// A scrolling list that only keeps the rows in view (plus a margin) in the document, so 50,000 rows
// cost what 50 do. Rows have one fixed height; row elements are reused as the list scrolls.
import { el } from "./dom.js";

export interface RowRenderer {
  create(): HTMLElement;
  /** Fill `row` for item `index`. */
  render(row: HTMLElement, index: number): void;
}

const OVERSCAN = 8;

export class VirtualList {
  readonly element: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly pool: HTMLElement[] = [];
  private count = 0;
  private frame = 0;
  private firstShown = -1;
  private lastShown = -1;

  constructor(private readonly rowHeight: number, private readonly renderer: RowRenderer, className = "vlist") {
    this.spacer = el("div", { class: "vlist-spacer" });
    this.element = el("div", { class: className, attrs: { tabindex: "0", role: "list" } }, this.spacer);
    this.element.addEventListener("scroll", () => this.schedule());
    window.addEventListener("resize", () => this.schedule());
  }

  setCount(count: number): void {
    this.count = count;
    this.spacer.style.height = `${count * this.rowHeight}px`;
    this.draw(true);
  }

  /** Redraw the visible rows (their data changed). */
  refresh(): void {
    this.draw(true);
  }

  /** Scroll the least needed to show item `index`. */
  reveal(index: number): void {
    const top = index * this.rowHeight;
    const view = this.element.clientHeight;
    if (top < this.element.scrollTop) this.element.scrollTop = top;
    else if (top + this.rowHeight > this.element.scrollTop + view) this.element.scrollTop = top + this.rowHeight - view;
    this.draw(true);
  }

  /** Rows currently in the document (for tests and readiness). */
  shownRows(): number {
    return this.lastShown < this.firstShown ? 0 : this.lastShown - this.firstShown + 1;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw(false);
    });
  }

  private draw(force: boolean): void {
    const height = this.element.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.element.scrollTop / this.rowHeight) - OVERSCAN);
    const last = Math.min(this.count - 1, Math.ceil((this.element.scrollTop + height) / this.rowHeight) + OVERSCAN);
    if (!force && first === this.firstShown && last === this.lastShown) return;
    this.firstShown = first;
    this.lastShown = last;
    const needed = Math.max(0, last - first + 1);
    while (this.pool.length < needed) {
      const row = this.renderer.create();
      row.style.position = "absolute";
      row.style.left = "0";
      row.style.right = "0";
      row.style.height = `${this.rowHeight}px`;
      this.pool.push(row);
      this.spacer.appendChild(row);
    }
    for (let k = 0; k < this.pool.length; k++) {
      const row = this.pool[k]!;
      if (k < needed) {
        const index = first + k;
        row.hidden = false;
        row.style.transform = `translateY(${index * this.rowHeight}px)`;
        this.renderer.render(row, index);
      } else row.hidden = true;
    }
  }
}
