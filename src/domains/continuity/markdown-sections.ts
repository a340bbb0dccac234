// Splits a Markdown document into heading sections the way a reader sees them. Pure.
// Headings are ATX (`## Name`) or setext (`Name` underlined with `===` or `---`), as CommonMark reads them.
// A section ends at the next heading of the same or a higher level, or at a thematic break.

export interface MarkdownSection {
  /** The heading text as written (closing `#`s removed). */
  title: string;
  /** `normalizeHeading(title)`: the name sections are looked up by. */
  name: string;
  level: number;
  /** 1-based line number of the heading. */
  line: number;
  /** The lines between the heading and the end of the section, joined with `\n`. */
  body: string;
}

// ATX heading: up to three spaces, 1–6 `#`, then a space/tab or the end of the line.
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
// Thematic break: three or more `-`, `*` or `_` (the same character), spaces and tabs allowed between.
const THEMATIC_BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
// Setext underline: up to three spaces, then only `=` (level 1) or only `-` (level 2).
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
// Lines that open a block other than a paragraph (list item, block quote, indented code): they cannot
// become a setext heading's text.
const NOT_PARAGRAPH = /^(?: {4}|\t| {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)| {0,3}>)/;
// Opening code fence: three or more backticks or tildes (backtick fences may not have backticks in the info string).
const FENCE_OPEN = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/;

/**
 * The heading name used for lookups: closing `#` sequence, surrounding emphasis, trailing colons and
 * whitespace removed, inner whitespace collapsed, lower-cased. `## **Next Action:** ` → `next action`.
 */
export function normalizeHeading(title: string): string {
  let name = title;
  for (let previous = ""; previous !== name; ) {
    previous = name;
    name = name.trim().replace(/[:：]+$/, "").trim();
    const wrapped = /^(\*\*|__|\*|_|`)(.*)\1$/.exec(name);
    if (wrapped) name = wrapped[2]!;
  }
  return name.replace(/\s+/g, " ").toLowerCase();
}

/**
 * Kinds of line. Fenced lines (fences included) are `code`: never headings, breaks or prose. A setext
 * heading is a `heading` on its first text line spanning `lines` lines (its text and underline); the
 * underline is `setext`.
 */
export type LineKind = { kind: "heading"; level: number; title: string; lines: number } | { kind: "setext" } | { kind: "break" } | { kind: "code" } | { kind: "content" };

/** Classifies each line, tracking code fences so `#` lines inside them are not headings. */
export function classifyLines(lines: readonly string[]): LineKind[] {
  const kinds: LineKind[] = [];
  // The closing fence: the same character, at least as many, nothing after but spaces.
  let fenceClose: RegExp | null = null;
  // First line of the paragraph being read (-1: none; -2: a block that is not a paragraph, such as a list).
  let paragraph = -1;
  lines.forEach((line, i) => {
    if (fenceClose) {
      if (fenceClose.test(line)) fenceClose = null;
      kinds.push({ kind: "code" });
      return;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      const marker = open[1]!;
      fenceClose = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*$`);
      kinds.push({ kind: "code" });
      paragraph = -1;
      return;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      kinds.push({ kind: "heading", level: heading[1]!.length, title: (heading[2] ?? "").replace(/(^|[ \t]+)#+$/, "").trim(), lines: 1 });
      paragraph = -1;
      return;
    }
    const underline = paragraph >= 0 ? SETEXT_UNDERLINE.exec(line) : null;
    if (underline) {
      // The paragraph above is the heading's text (CommonMark: a `---` under text underlines it).
      const title = lines.slice(paragraph, i).map((l) => l.trim()).join(" ");
      kinds[paragraph] = { kind: "heading", level: underline[1]![0] === "=" ? 1 : 2, title, lines: i - paragraph + 1 };
      kinds.push({ kind: "setext" });
      paragraph = -1;
      return;
    }
    if (THEMATIC_BREAK.test(line)) {
      kinds.push({ kind: "break" });
      paragraph = -1;
      return;
    }
    kinds.push({ kind: "content" });
    if (line.trim() === "") paragraph = -1;
    else if (paragraph === -1) paragraph = NOT_PARAGRAPH.test(line) ? -2 : i;
  });
  return kinds;
}

/** Every heading section of `text`, in document order (nested headings get their own entry too). */
export function parseMarkdownSections(text: string): MarkdownSection[] {
  const lines = splitLines(text);
  const kinds = classifyLines(lines);
  const sections: MarkdownSection[] = [];
  kinds.forEach((kind, index) => {
    if (kind.kind !== "heading") return;
    const bodyStart = index + kind.lines;
    let end = bodyStart;
    for (; end < lines.length; end++) {
      const next = kinds[end]!;
      if (next.kind === "break") break;
      if (next.kind === "heading" && next.level <= kind.level) break;
    }
    sections.push({
      title: kind.title,
      name: normalizeHeading(kind.title),
      level: kind.level,
      line: index + 1,
      body: trimBlankLines(lines.slice(bodyStart, end)).join("\n"),
    });
  });
  return sections;
}

/** The first section named `name` (compared normalised), at any heading level. */
export function findSection(sections: readonly MarkdownSection[], name: string): MarkdownSection | undefined {
  const wanted = normalizeHeading(name);
  return sections.find((s) => s.name === wanted);
}

export function splitLines(text: string): string[] {
  return text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
}

/** The prose lines of a section body: code blocks, setext underlines and HTML comments removed, blank lines dropped, trimmed. */
export function proseLines(body: string): string[] {
  const withoutComments = body.replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  const lines = splitLines(withoutComments);
  const kinds = classifyLines(lines);
  return lines.filter((line, i) => kinds[i]!.kind !== "code" && kinds[i]!.kind !== "setext" && line.trim() !== "").map((line) => line.trim());
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end);
}
