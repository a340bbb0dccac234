// Text from agents (tool names, titles, summaries, file contents) is shown, never obeyed: control
// characters become visible escapes before they reach a terminal (docs/hardening.md). JSON output needs
// none of this (JSON.stringify escapes them already).

// C0 controls but tab and newline, DEL, C1 controls, the Unicode line and paragraph separators, the bidi
// embeddings, overrides and isolates that reorder what is shown, and the zero-width characters, marks
// and byte order mark that hide text. The report page's dom.ts shows the same (but the separators).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
// The same, plus tab and newline: for values that must stay on one line (table cells, names, findings).
// eslint-disable-next-line no-control-regex
const CONTROL_INLINE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
// The only escape sequences aop itself prints: SGR colors from style.ts.
// eslint-disable-next-line no-control-regex
const OUR_STYLES = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (c === "\n") return "\\n";
  if (c === "\t") return "\\t";
  if (c === "\r") return "\\r";
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `text` with control characters (but newlines and tabs) shown as escapes: `\x1b[2J` prints as text. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Like escapeControl, for a value that must stay on one line: newlines and tabs are escaped too. */
export function escapeInline(text: string): string {
  return text.replace(CONTROL_INLINE, visible);
}

/**
 * The last line of defence, applied to everything the CLI prints for people: any control character is
 * escaped, except newlines, tabs and — when colors are on — aop's own color codes.
 */
export function sanitizeOutput(text: string, keepStyles: boolean): string {
  return keepStyles ? keepingStyles(text, escapeControl) : escapeControl(text);
}

/** A table cell: kept on one line, aop's own colors kept. */
export function escapeCell(text: string): string {
  return keepingStyles(text, escapeInline);
}

function keepingStyles(text: string, escape: (s: string) => string): string {
  let out = "";
  let last = 0;
  for (const match of text.matchAll(OUR_STYLES)) {
    out += escape(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + escape(text.slice(last));
}
