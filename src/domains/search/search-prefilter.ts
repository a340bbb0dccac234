// The chunk-level pre-filter of a scan (docs/replay.md, "Search"; docs/performance.md, "Search"): over
// many whole lines at once, native string searches find the few lines that might match, and every
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
const COMMON = 64;

function mark(marks: number[], text: string, needle: string): void {
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) marks.push(at);
}

/** How often `needle` occurs in `text`, counting no further than `cap`. */
function count(text: string, needle: string, cap: number): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1 && n < cap; at = text.indexOf(needle, at + needle.length)) n += 1;
  return n;
}

/** The query word found least often in `lower` (a line lacking it is one cannotMatch rules out). */
function rarest(lower: string, words: readonly string[]): string {
  let best = words[0]!;
  let least = count(lower, best, COMMON);
  for (const word of words.slice(1)) {
    if (least === 0) break;
    const n = count(lower, word, least);
    if (n < least) [best, least] = [word, n];
  }
  return best;
}

/**
 * The lines of `text` (bytes read as latin1, ending with `\n`) that `cannotMatch` might not rule out:
 * every line holding the query word found least often in the text (case-insensitively), a `\u` escape
 * or `"error"` (a failed call). A line not flagged is one cannotMatch rules out (ASCII, no escape, not
 * failed, lacking a word), so the caller passes over it; a flagged line is still judged by cannotMatch
 * and then parsed. The caller checks the bytes are ASCII (any other line is judged by cannotMatch).
 * Null when lower-casing changes the text's length (positions would not line up). `words` not empty.
 */
export function flagLines(text: string, words: readonly string[]): FlaggedLines | null {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return null;
  const marks: number[] = [];
  mark(marks, lower, rarest(lower, words));
  mark(marks, text, "\\u");
  mark(marks, text, 'rror"'); // of "error": a rarer first letter than a quote is found faster
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
