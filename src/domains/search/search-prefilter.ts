// The chunk-level pre-filter of a scan (docs/replay.md, "Search"; docs/performance.md, "Search"): over
// many whole lines at once, regular expressions find the few lines that might match, and every
// other line is passed over without being cut out, decoded as UTF-8 or parsed. Pure.

/** A line longer than this is left to the line reader (which bounds and skips over-long lines). */
export const FAST_LINE_MAX = 256 * 1024;

export interface FlaggedLines {
  /** Whole lines looked at (each ends with `\n`), from the start of the text. */
  lines: number;
  /** Start and end (the index of its `\n`) of each line that might match, in order. */
  flagged: number[];
  /** Where the lines looked at stop: the text's length, or the start of a line longer than FAST_LINE_MAX. */
  stop: number;
}

/** Occurrences of a word past which it is common: the other words are counted no further. */
const COMMON = 8;

/**
 * The query words as patterns matching them in any case, for `flagLines`. On ASCII text a pattern
 * matches exactly where the lower-cased text holds the word (a word past ASCII matches nowhere there).
 */
export function caselessPatterns(words: readonly string[]): RegExp[] {
  return words.map((word) => new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"));
}

/** Where `pattern` (global) matches in `text`, at most `cap` of them. */
function matches(text: string, pattern: RegExp, cap: number): number[] {
  const found: number[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null && found.length < cap; m = pattern.exec(text)) found.push(m.index);
  return found;
}

/**
 * The lines of `text` (ASCII bytes as a string, ending with `\n`) that `cannotMatch` might not rule
 * out: every line holding the query word found least often in the text (in any case), a `\u` escape
 * or `"error"` (a failed call). A line not flagged is one cannotMatch rules out (no escape, not failed,
 * lacking a word), so the caller passes over it; a flagged line is still judged by cannotMatch and then
 * parsed. The caller checks the bytes are ASCII (a line past it is judged by cannotMatch alone).
 * `patterns` (from caselessPatterns) must not be empty.
 */
export function flagLines(text: string, patterns: readonly RegExp[]): FlaggedLines {
  let best = patterns[0]!;
  let least = matches(text, best, COMMON).length;
  for (const pattern of patterns.slice(1)) {
    if (least === 0) break;
    const n = matches(text, pattern, least).length;
    if (n < least) [best, least] = [pattern, n];
  }
  const marks = least === 0 ? [] : matches(text, best, Infinity);
  for (let at = text.indexOf("\\u"); at !== -1; at = text.indexOf("\\u", at + 2)) marks.push(at);
  // `rror"` (in every `"error"`) is found faster: a quote or an `e` starts many more places in JSON.
  for (let at = text.indexOf('rror"'); at !== -1; at = text.indexOf('rror"', at + 5)) marks.push(at);
  marks.sort((a, b) => a - b);
  const flagged: number[] = [];
  let lines = 0;
  let next = 0; // the first mark not yet placed on a line
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    if (nl === -1 || nl - start > FAST_LINE_MAX) break;
    lines += 1;
    if (next < marks.length && marks[next]! <= nl) {
      flagged.push(start, nl);
      while (next < marks.length && marks[next]! <= nl) next += 1;
    }
    start = nl + 1;
  }
  return { lines, flagged, stop: start };
}
