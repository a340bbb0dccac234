// The Objective of a state document, and how two objectives are compared. Pure.
import type { StateDocument } from "./state-document.js";
import { sectionValue } from "./state-document.js";

/** The Objective as one line, or undefined when the section is missing, empty, `None` or a placeholder. */
export function extractObjective(doc: StateDocument): string | undefined {
  const section = doc.sections.get("Objective");
  if (!section) return undefined;
  const value = sectionValue(section.body);
  return value === "" ? undefined : value;
}

/**
 * The form objectives are compared in: Markdown links reduced to their text, code and emphasis
 * marks removed, Unicode-normalised (NFKC), lower-cased, whitespace collapsed, final punctuation dropped.
 * "Build the **auth** module." and "build the auth   module" are the same objective.
 */
export function normalizeObjective(text: string): string {
  return (isAscii(text) ? text : text.normalize("NFKC"))
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*~]|(^|\s)_+|_+(?=\s|$)/g, "$1")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.!?;:,。！？]+$/u, "");
}

export function objectivesDiffer(a: string, b: string): boolean {
  return normalizeObjective(a) !== normalizeObjective(b);
}

/** Quotes a text shortened for a one-line message. */
export function quoteText(text: string, max = 60): string {
  const one = text.replace(/\s+/g, " ").trim();
  return `"${one.length > max ? one.slice(0, max - 1) + "…" : one}"`;
}

/**
 * True when every character is ASCII. ASCII text needs no Unicode normalisation or property classes,
 * and skipping them skips loading ICU data: milliseconds of a doctor run that takes a few dozen.
 */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
