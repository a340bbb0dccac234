// Recognises template placeholder text left in a CURRENT_STATE.md section. Pure.
// The rule is documented in docs/continuity.md ("Placeholder rule").
import { proseLines } from "./markdown-sections.js";

/** Words that mean "not filled in yet" when they are a whole line or wrapped in brackets. */
const MARKER_WORDS = /^(?:todo|tbd|tba|fixme|xxx|fill in|fill me in|fill this in|to be filled(?: in)?|placeholder|\.{3}|…)$/i;

// Common HTML elements: `<br>` or `<details>` on a line of their own are markup, not placeholders.
const HTML_TAGS = new Set([
  "a", "abbr", "b", "br", "code", "details", "div", "em", "hr", "i", "img", "kbd", "li", "ol", "p", "pre",
  "s", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "th", "thead", "tr", "u", "ul",
]);

const MAX_SHOWN = 80;

/** Strips what decorates a line without being its content: quote and list markers, a checkbox, emphasis. */
export function lineContent(line: string): string {
  let text = line.trim();
  text = text.replace(/^(?:>\s*)+/, "");
  text = text.replace(/^(?:[-*+]|\d{1,9}[.)])(?:\s+|$)/, "");
  text = text.replace(/^\[[ xX]\](?:\s+|$)/, "");
  for (let previous = ""; previous !== text; ) {
    previous = text;
    const wrapped = /^(\*\*|__|\*|_)(.+)\1$/.exec(text.trim());
    text = wrapped ? wrapped[2]! : text.trim();
  }
  return text;
}

/** True when a whole line (already stripped by `lineContent`) is a template placeholder. */
export function isPlaceholderLine(text: string): boolean {
  if (MARKER_WORDS.test(text) || MARKER_WORDS.test(text.replace(/[.!:]+$/, ""))) return true;
  const bracketed = /^\[([^[\]]+)\]$/.exec(text);
  if (bracketed) {
    const inner = bracketed[1]!.trim();
    // `[x]` is a checkbox, `[^1]` a footnote, `[3]` a citation: content, not a template slot.
    return inner !== "" && !/^[xX]$/.test(inner) && !inner.startsWith("^") && !/^\d+$/.test(inner);
  }
  const angled = /^<([^<>]+)>$/.exec(text);
  if (angled) return isAngledPlaceholder(angled[1]!);
  const parenthesised = /^\(([^()]+)\)$/.exec(text);
  return parenthesised !== null && MARKER_WORDS.test(parenthesised[1]!.trim());
}

function isAngledPlaceholder(inner: string): boolean {
  const text = inner.trim();
  // Autolinks (`<https://…>`, `<me@host>`), closing tags, comments and attributes are markup.
  if (text === "" || /:\/\/|@|=|^[/!?]/.test(text)) return false;
  const firstWord = text.split(/\s+/)[0]!.toLowerCase();
  return !HTML_TAGS.has(firstWord);
}

// A marker word wrapped in brackets anywhere in a line: "Deploy <fill in> to [TODO]".
const INLINE_MARKER = /\[\s*(todo|tbd|tba|fixme|fill in|fill me in|placeholder)\s*\]|<\s*(todo|tbd|tba|fixme|fill in|fill me in|placeholder)\s*>|\{\{[^{}]*\}\}/gi;

/**
 * The placeholder texts in a section body (empty when there are none): whole lines that are
 * placeholders, and bracketed marker words or `{{…}}` slots inside a line. Code blocks are ignored.
 */
export function findPlaceholders(body: string): string[] {
  const found: string[] = [];
  for (const line of proseLines(body)) {
    const text = lineContent(line);
    if (isPlaceholderLine(text)) {
      found.push(text);
      continue;
    }
    for (const match of text.matchAll(INLINE_MARKER)) found.push(match[0]);
  }
  return [...new Set(found)].map((text) => (text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN - 1) + "…" : text));
}

/** True when every prose line of the body is a placeholder (the section says nothing yet). */
export function isOnlyPlaceholders(body: string): boolean {
  const lines = proseLines(body);
  return lines.length > 0 && lines.every((line) => isPlaceholderLine(lineContent(line)));
}
