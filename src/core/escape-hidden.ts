// Text from agents (tool names, titles, summaries, file contents) is shown, never obeyed: the one rule
// for which characters become visible escapes before they reach a terminal or the report page, and how
// an escaped one reads (docs/hardening.md). JSON output needs none of this (JSON.stringify escapes them).

// C0 controls, DEL, C1 controls, the zero-width characters and marks, the bidi embeddings, overrides and
// isolates that reorder what is shown, the Unicode line and paragraph separators, and the byte order mark.
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Line breaks and tabs: kept where text may span lines (a terminal block, a page). */
export const KEEP_LINES = "\t\n";

function visible(c: string): string {
  if (c === "\n") return "\\n";
  if (c === "\t") return "\\t";
  if (c === "\r") return "\\r";
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with every hidden or reordering character but those in `keep` shown as an escape: `\x1b[2J` prints as text, U+202E as `\u202e`. */
export function escapeHidden(text: string, keep = ""): string {
  return text.replace(HIDDEN, (c) => (keep.includes(c) ? c : visible(c)));
}
