// The README's Tour as a script: its shell sessions (`$ command` lines and the output under each) and its
// hidden set-up steps (`<!-- tour: shell command -->`, e.g. the edit that tampers with a file), in order.
// Outputs are compared modulo times, hashes, sizes and the workspace's own path (normalizeTourOutput).
// Pure: reading and running are the test's.

export type TourStep =
  | { kind: "command"; command: string; expected: string[]; line: number }
  | { kind: "setup"; command: string; line: number };

const TOUR_START = /^## Tour\s*$/;
const SECTION = /^## /;
const HIDDEN = /^<!-- tour: (.+) -->\s*$/;
const FENCE = /^```/;

/** The Tour section's steps, in the order a reader meets them. */
export function parseTour(readme: string): TourStep[] {
  const lines = readme.split("\n");
  const start = lines.findIndex((l) => TOUR_START.test(l));
  if (start === -1) throw new Error("README has no '## Tour' section");
  const steps: TourStep[] = [];
  let inFence = false;
  let current: Extract<TourStep, { kind: "command" }> | null = null;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!inFence && SECTION.test(line)) break;
    if (FENCE.test(line)) {
      // Only plain fences are sessions; ```yaml and the like are files shown, not run.
      if (!inFence && line.trim() !== "```") {
        const end = lines.findIndex((l, j) => j > i && FENCE.test(l));
        i = end === -1 ? lines.length : end;
        continue;
      }
      inFence = !inFence;
      current = null;
      continue;
    }
    if (!inFence) {
      const hidden = HIDDEN.exec(line);
      if (hidden) steps.push({ kind: "setup", command: hidden[1]!, line: i + 1 });
      continue;
    }
    if (line.startsWith("$ ")) {
      current = { kind: "command", command: line.slice(2), expected: [], line: i + 1 };
      steps.push(current);
    } else if (current) {
      current.expected.push(line);
    }
  }
  return steps;
}

/** What may differ between two runs of the Tour: each becomes a placeholder, and runs of spaces one space. */
const VARIABLE: [RegExp, string][] = [
  [/sha256:[0-9a-f]{6,64}…?/g, "sha256:<hash>"],
  [/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, "<ts>"],
  [/\b\d{8}T\d{6}(\.\d+)?Z\b/g, "<stamp>"],
  [/\b\d{4}-\d{2}-\d{2}\b/g, "<date>"],
  [/\b\d{2}:\d{2}:\d{2}\.\d{3}\b/g, "<time>"],
  [/\b\d{13}\b/g, "<epoch>"],
  [/\bop-[a-z0-9]{6,}-[a-z0-9]{6,}\b/g, "<op>"],
  [/\b\d+(\.\d+)? ?(ms|s|m|h|d)( ago)?\b/g, "<duration>"],
  [/\b\d+(\.\d+)? (B|KB|MB)\b/g, "<size>"],
  [/\b[0-9a-f]{32}\b/g, "<id>"],
  // Abbreviated git commits (aop sync): they hash a commit time.
  [/\bcommit [0-9a-f]{12}\b/g, "commit <commit>"],
  [/\b(after|at) [0-9a-f]{12}\b/g, "$1 <commit>"],
  [/:\d{4,5}\//g, ":<port>/"],
];

/** The Tour's workspace: a temp folder named `aop-tour-XXXXXX`, wherever the system keeps temp folders. */
const TOUR_ROOT = /(?:\/[\w.-]+)*\/aop-tour-[A-Za-z0-9_]{6,10}\b/g;
const TOUR_NAME = /\baop-tour-[A-Za-z0-9_]{6,10}\b/g;

/** One output, modulo what may differ: the workspace root and its name, then VARIABLE; lines trimmed at the end. */
export function normalizeTourOutput(text: string): string[] {
  let out = text.replace(TOUR_ROOT, "<root>").replace(TOUR_NAME, "<name>");
  for (const [pattern, placeholder] of VARIABLE) out = out.replace(pattern, placeholder);
  const lines = out.split("\n").map((l) => l.replace(/ {2,}/g, " ").trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Whether `actual` matches `expected` line by line; a line of `expected` that is only `…` stands for any
 * number of lines (the README elides long payloads so). Both are normalized already.
 */
export function tourOutputMatches(expected: readonly string[], actual: readonly string[]): boolean {
  const match = (e: number, a: number): boolean => {
    if (e === expected.length) return a === actual.length;
    if (expected[e]!.trim() === "…") {
      for (let skip = a; skip <= actual.length; skip++) if (match(e + 1, skip)) return true;
      return false;
    }
    return a < actual.length && expected[e] === actual[a] && match(e + 1, a + 1);
  };
  return match(0, 0);
}
