// Building the page's elements. Text from the workspace only ever becomes text nodes, titles or
// option labels: nothing here parses markup, so a tool name like `<img onerror=…>` stays text. And all of
// it goes through `shown`, so characters that reorder or hide what is read are shown, not obeyed.

import { escapeHidden, KEEP_LINES } from "../../../core/escape-hidden.js";

export type Child = Node | string | number | null | undefined | false;

/**
 * Text from the workspace as the page shows it: hidden and reordering characters as visible escapes
 * (`\u202e`), by the terminal's rule (core/escape-hidden.ts) — but U+2028/U+2029, which a page shows
 * as the line breaks they are.
 */
export function shown(text: string): string {
  return escapeHidden(text, KEEP_LINES + "\u2028\u2029");
}

/** Set a node's text (workspace text included) through `shown`. */
export function setText(node: Node, text: string): void {
  node.textContent = shown(text);
}

export interface Props {
  class?: string;
  title?: string;
  id?: string;
  /** data-* attributes, by name without the prefix. */
  data?: Record<string, string>;
  attrs?: Record<string, string>;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props) {
    if (props.class) node.className = props.class;
    if (props.title) node.title = shown(props.title);
    if (props.id) node.id = props.id;
    if (props.data) for (const [k, v] of Object.entries(props.data)) node.dataset[k] = v;
    if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) node.setAttribute(k, v);
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(shown(String(c))) : c);
  }
}

/** Replace an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

export function table(headers: string[], rows: Child[][], options: { class?: string; numeric?: number[] } = {}): HTMLTableElement {
  const numeric = new Set(options.numeric ?? []);
  const head = el("tr", null, ...headers.map((h, i) => el("th", numeric.has(i) ? { class: "num" } : null, h)));
  const body = rows.map((cells) => el("tr", null, ...cells.map((c, i) => el("td", numeric.has(i) ? { class: "num" } : null, c))));
  return el("table", { class: options.class ?? "grid" }, el("thead", null, head), el("tbody", null, ...body));
}

export function badge(text: string, kind: string, title?: string): HTMLSpanElement {
  return el("span", { class: `badge ${kind}`, ...(title ? { title } : {}) }, text);
}
