// Which path a `context_primer.generated_files` entry names, read as the reference CLI reads it
// (docs/checkpoints.md "`doctor`"): writers annotate entries (`src/a.ts (PR 3, new)`), use brace or
// glob shorthand (`src/{a,b}.ts`) and write prose (`Branch ref x — deletable`). Pure.

/** The path an entry names, or null when it names none that can be checked (shorthand, prose, not text). */
export function namedGeneratedPath(entry: unknown): string | null {
  if (typeof entry !== "string") return null;
  // An annotation starts at the first " (": "(this file, updated)", "(PR 1, 4cb0b09)".
  const cut = entry.indexOf(" (");
  const text = (cut >= 0 ? entry.slice(0, cut) : entry).trim();
  // Brace and glob shorthand name several files or a pattern, not one literal path.
  if (/[{}*]/.test(text)) return null;
  // The path is the entry's first word ("a.yml updated with …", "a.js + b.js"); an entry whose first
  // word is not a path ("Branch ref …", "None") is prose.
  const first = text.split(/\s/, 1)[0] ?? "";
  return looksLikePath(first) ? first : null;
}

/** A relative or absolute file path: has a folder separator, or a file name with an extension. */
function looksLikePath(word: string): boolean {
  if (word === "" || /^[a-z][a-z0-9+.-]*:/i.test(word)) return false; // URLs and `scheme:` prose
  return word.includes("/") || /^[\w.-]*[\w-]\.[A-Za-z0-9]{1,8}$/.test(word);
}
