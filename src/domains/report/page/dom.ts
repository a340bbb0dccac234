// Building the page's elements. Text from the workspace only ever becomes text nodes, titles or
// option labels: nothing here parses markup, so a tool name like `<img onerror=…>` stays text. And all of
// it goes through `shown`, so characters that reorder or hide what is read are shown, not obeyed.

export type Child = Node | string | number | null | undefined | false;

// Controls (but tab and newline), zero-width characters and marks, bidi embeddings, overrides and
// isolates, and the byte order mark: a tool name carrying U+202E would otherwise read backwards
// (docs/hardening.md). The terminal's escape.ts shows these too (and U+2028/U+2029, which a page shows
// as the line breaks they are).
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Text from the workspace as the page shows it: hidden and reordering characters as visible escapes (`\u202e`). */
export function shown(text: string): string {
  return text.replace(HIDDEN, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
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
