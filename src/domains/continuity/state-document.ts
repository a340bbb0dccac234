// The memory-continuity protocol's view of CURRENT_STATE.md: its six sections and their values. Pure.
import { findSection, parseMarkdownSections, proseLines, type MarkdownSection } from "./markdown-sections.js";
import { isOnlyPlaceholders, lineContent } from "./placeholders.js";

export const REQUIRED_SECTIONS = ["Objective", "Current Step", "Key Decisions", "Next Action", "Blockers", "Unsurfaced Results"] as const;
export type RequiredSection = (typeof REQUIRED_SECTIONS)[number];

export interface StateDocument {
  /** The required sections that are present, by their canonical name. */
  sections: Map<RequiredSection, MarkdownSection>;
  missing: RequiredSection[];
}

export function readStateDocument(text: string): StateDocument {
  const all = parseMarkdownSections(text);
  const sections = new Map<RequiredSection, MarkdownSection>();
  const missing: RequiredSection[] = [];
  for (const name of REQUIRED_SECTIONS) {
    const section = findSection(all, name);
    if (section) sections.set(name, section);
    else missing.push(name);
  }
  return { sections, missing };
}

// What "nothing here" looks like in a section: `None`, `- None yet`, `N/A`, `(none)`, `—`.
const NONE_VALUE = /^\(?(?:none(?: yet)?|n\/a|na|nothing|nil|empty|[-–—])\)?[.!]?$/i;

/** True when a section body states nothing: empty, `None`-like, or only template placeholders. */
export function isEmptyOrNone(body: string): boolean {
  if (isOnlyPlaceholders(body)) return true;
  return proseLines(body).every((line) => {
    const text = lineContent(line);
    return text === "" || NONE_VALUE.test(text);
  });
}

/** The section's prose as one line (list markers and emphasis stripped), or "" when it states nothing. */
export function sectionValue(body: string): string {
  if (isEmptyOrNone(body)) return "";
  return proseLines(body)
    .map((line) => lineContent(line))
    .filter((text) => text !== "")
    .join(" ");
}

/**
 * What `Unsurfaced Results` still holds: "" when the section is empty or says exactly `None` (any case),
 * as DESIGN §7 and the reference doctor read it; otherwise its text, comments and template hints
 * included (`N/A`, `None yet` and `<!-- … -->` are not the protocol's "nothing").
 */
export function pendingResults(body: string): string {
  const text = body.trim();
  return text === "" || text.toLowerCase() === "none" ? "" : text;
}
