// The one rule for what a search word is and when it matches (aop search and the report page's search
// box share it: docs/replay.md, "Search"). Pure.

const MAX_TOKEN = 64;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Lower-cased runs of letters and digits (anything else separates words), each cut at 64 characters. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const part of text.toLowerCase().split(SEPARATORS)) if (part !== "") out.push(part.length > MAX_TOKEN ? part.slice(0, MAX_TOKEN) : part);
  return out;
}

/** Every word starts some token of the record (case-insensitive). An empty query matches everything. */
export function tokensMatch(tokens: Iterable<string>, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const left = new Set(words);
  for (const token of tokens) {
    for (const word of left) if (token.startsWith(word)) left.delete(word);
    if (left.size === 0) return true;
  }
  return false;
}
