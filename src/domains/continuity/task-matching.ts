// Active tasks (tasks.md checkboxes, openspec change titles) and whether an objective names one. Pure.
// The matching rule is documented in docs/continuity.md ("Tasks and openspec").
import { classifyLines, splitLines } from "./markdown-sections.js";
import { isAscii, normalizeObjective } from "./objective.js";

// `- [ ] text`, `* [ ] text`, `+ [ ] text`, `1. [ ] text`, at any indentation.
const UNCHECKED_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+\[ \]\s+(.+?)\s*$/;

/** The text of every unchecked checkbox item outside code blocks. */
export function uncheckedItems(markdown: string): string[] {
  const lines = splitLines(markdown);
  const kinds = classifyLines(lines);
  const items: string[] = [];
  lines.forEach((line, i) => {
    if (kinds[i]!.kind !== "content") return;
    const match = UNCHECKED_ITEM.exec(line);
    if (match) items.push(match[1]!);
  });
  return items;
}

/** The first heading's text (`# Change: Add auth` → `Add auth`), or undefined. */
export function documentTitle(markdown: string): string | undefined {
  const lines = splitLines(markdown);
  const kinds = classifyLines(lines);
  for (const kind of kinds) {
    if (kind.kind === "heading" && kind.title !== "") return kind.title.replace(/^(?:change|proposal|tasks?)\s*:\s*/i, "").trim() || undefined;
  }
  return undefined;
}

/** An openspec change id as words: `add-user-auth` → `add user auth`. */
export function changeIdWords(changeId: string): string {
  return changeId.replace(/[-_]+/g, " ").trim();
}

// Words that carry no subject: articles, prepositions, and verbs every task starts with.
const STOP_WORDS = new Set(
  ("a an and are as at be but by do does for from has have in into is it its of on or our so that the their then this to " +
    "up us was we were will with without add build change create do finish fix get implement make move remove start " +
    "continue update use work write task tasks").split(" "),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The words that say what a text is about: lower-case, stop words removed, a plural `s` dropped; CJK as character pairs. */
export function significantWords(text: string): Set<string> {
  const normalized = normalizeObjective(text);
  const ascii = isAscii(normalized);
  const tokens = (ascii ? normalized.match(/[a-z0-9]+/g) : normalized.match(/[\p{L}\p{N}]+/gu)) ?? [];
  const words: string[] = [];
  for (const token of tokens) {
    if (!ascii && CJK.test(token)) {
      const chars = [...token];
      if (chars.length === 1) words.push(token);
      for (let i = 0; i + 1 < chars.length; i++) words.push(chars[i]! + chars[i + 1]!);
      continue;
    }
    if (token.length < 3 && !/\d/.test(token)) continue;
    words.push(token.length > 4 && token.endsWith("s") && !token.endsWith("ss") ? token.slice(0, -1) : token);
  }
  const significant = words.filter((w) => !STOP_WORDS.has(w));
  return new Set(significant.length > 0 ? significant : words);
}

/**
 * True when the objective names the task: one text contains the other (normalised, whole words), or
 * they share at least half of the significant words of the shorter one — and at least two, unless the
 * shorter has only one (one common word like "user" is a coincidence, not a match).
 */
export function objectiveMatchesTask(objective: string, task: string): boolean {
  const o = normalizeObjective(objective);
  const t = normalizeObjective(task);
  if (o === "" || t === "") return false;
  // Whole words only: the task "auth" is not named by "authentication".
  if (` ${o} `.includes(` ${t} `) || ` ${t} `.includes(` ${o} `)) return true;
  const ow = significantWords(objective);
  const tw = significantWords(task);
  let shared = 0;
  for (const word of ow) if (tw.has(word)) shared++;
  const smaller = Math.min(ow.size, tw.size);
  return shared >= 1 && shared >= Math.min(2, smaller) && shared >= Math.ceil(smaller / 2);
}
