// What the CLI prints for people passes through the one escaping rule (core/escape-hidden.ts), so text
// from agents never drives the terminal; aop's own colors are the only escape sequences kept.
import { escapeHidden, KEEP_LINES } from "../../../core/escape-hidden.js";

// The only escape sequences aop itself prints: SGR colors from style.ts.
// eslint-disable-next-line no-control-regex
const OUR_STYLES = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

/** `text` with control characters (but newlines and tabs) shown as escapes: `\x1b[2J` prints as text. */
export function escapeControl(text: string): string {
  return escapeHidden(text, KEEP_LINES);
}

/** Like escapeControl, for a value that must stay on one line (table cells, names, findings): newlines and tabs are escaped too. */
export function escapeInline(text: string): string {
  return escapeHidden(text);
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
