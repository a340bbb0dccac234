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
 * `patterns` (from caselessPatterns) must not be empty. `failed` false: failed calls are flagged only
 * by their words (cannotMatch's `failed`).
 */
export function flagLines(text: string, patterns: readonly RegExp[], failed = true): FlaggedLines {
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
  if (failed) for (let at = text.indexOf('rror"'); at !== -1; at = text.indexOf('rror"', at + 5)) marks.push(at);
  return placeMarks(text.length, (from) => text.indexOf("\n", from), marks);
}

/**
 * The whole lines of a text of `length` (each newline found by `newlineFrom`), up to the first one
 * longer than FAST_LINE_MAX, each line holding one of `marks` flagged.
 */
function placeMarks(length: number, newlineFrom: (from: number) => number, marks: number[]): FlaggedLines {
  marks.sort((a, b) => a - b);
  const flagged: number[] = [];
  let lines = 0;
  let next = 0; // the first mark not yet placed on a line
  let start = 0;
  while (start < length) {
    const nl = newlineFrom(start);
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

/** A query word for `flagBytes`: its bytes, and its letters' upper-case bytes (the order is a hint it reorders). */
export interface ByteWord {
  bytes: Buffer;
  upper: number[];
}

/** The query words for `flagBytes`, longest first (a longer word is found faster and on fewer lines). */
export function byteWords(words: readonly string[]): ByteWord[] {
  // A word past ASCII is in no ASCII bytes, in any case: it needs no upper-case look.
  const letters = (w: string) => ([...w].some((c) => c.charCodeAt(0) > 0x7f) ? [] : [...new Set([...w].filter((c) => c >= "a" && c <= "z"))].map((c) => c.toUpperCase().charCodeAt(0)));
  return words.map((w) => ({ bytes: Buffer.from(w, "utf8"), upper: letters(w) })).sort((a, b) => b.bytes.length - a.bytes.length);
}

/** Occurrences of `needle` in `bytes`, counting stops at `cap`. */
function count(bytes: Buffer, needle: Buffer, cap: number): number {
  let n = 0;
  for (let at = bytes.indexOf(needle); at !== -1 && n < cap; at = bytes.indexOf(needle, at + needle.length)) n += 1;
  return n;
}

/** Whether none of the word's letters is in `bytes` in upper case; a letter found moves first (it is likely in the next piece too). */
function lowerOnly(bytes: Buffer, word: ByteWord): boolean {
  for (let i = 0; i < word.upper.length; i++) {
    if (bytes.indexOf(word.upper[i]!) === -1) continue;
    word.upper.unshift(...word.upper.splice(i, 1));
    return false;
  }
  return true;
}

const ESCAPE = Buffer.from("\\u");
const FAILED = Buffer.from('rror"');

/**
 * `flagLines` on the bytes themselves, without decoding them: the same lines counted, the same stop, and
 * flagged lines that include every line `cannotMatch` might not rule out. A word is looked for as
 * written (lower case) only in bytes holding none of its letters in upper case, where that finds it in
 * any case; null when every word has such a letter there (the caller then uses `flagLines`). `bytes`
 * must be ASCII and end with `\n`; `words` (from byteWords) must not be empty.
 */
export function flagBytes(bytes: Buffer, words: readonly ByteWord[], failed = true): FlaggedLines | null {
  let best: ByteWord | null = null;
  let least = COMMON;
  for (const word of words) {
    const n = count(bytes, word.bytes, best === null ? COMMON : least);
    if ((best === null || n < least) && lowerOnly(bytes, word)) [best, least] = [word, n];
    // A line or two to judge costs less than another pass over the bytes.
    if (best !== null && least <= 1) break;
  }
  if (best === null) return null;
  const marks: number[] = [];
  if (least > 0) for (let at = bytes.indexOf(best.bytes); at !== -1; at = bytes.indexOf(best.bytes, at + best.bytes.length)) marks.push(at);
  for (const needle of failed ? [ESCAPE, FAILED] : [ESCAPE]) for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length)) marks.push(at);
  return placeMarks(bytes.length, (from) => bytes.indexOf(0x0a, from), marks);
}
