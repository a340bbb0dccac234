import { describe, expect, it } from "vitest";
import { cannotMatch } from "../../../src/domains/search/search-steps.js";
import { byteWords, caselessPatterns, FAST_LINE_MAX, flagBytes, flagLines, type FlaggedLines } from "../../../src/domains/search/search-prefilter.js";

// Plain ASCII lines (the pre-filter's case), in mixed case, failed calls, escapes and a line that is not JSON.
const LINES = [
  JSON.stringify({ ts: "2026-01-01T00:00:00.000Z", tool_name: "feature.init", feature_id: "Login-Page", result: "ok", error_code: null }),
  JSON.stringify({ ts: "2026-01-01T00:00:01.000Z", tool_name: "feature.get", feature_id: "feat_a", operation_id: "op-run-42-8405", result: "ok" }),
  '{"tool_name": "feature.get", "feature_id": "caf\\u00e9", "result": "ok"}',
  '{"tool_name": "feature.set_status", "result" : "error", "error_code": "version_conflict"}',
  JSON.stringify({ tool_name: "LINT.RUN", feature_id: "FEATURE_NOT_FOUND", result: "ok" }),
  "not json at all, Feature",
  "",
];
const WORDS = ["login", "page", "feature", "not", "found", "lint", "run", "8405", "42", "op", "caf", "u00e9", "version", "error", "ok", "zzz", "café"];

describe("flagLines, the chunk pre-filter of a scan", () => {
  it("flags every line cannotMatch would not rule out, and counts every line", () => {
    const text = LINES.join("\n") + "\n";
    const bytes = Buffer.from(text, "latin1");
    for (const a of WORDS) {
      for (const b of [...WORDS, null]) {
        const words = b === null ? [a] : [...new Set([a, b])];
        const found = flagLines(text, caselessPatterns(words));
        expect(found.lines).toBe(LINES.length);
        expect(found.stop).toBe(text.length);
        const flagged = new Set<number>();
        for (let i = 0; i < found.flagged.length; i += 2) flagged.add(found.flagged[i]!);
        let start = 0;
        for (const line of LINES) {
          if (!flagged.has(start)) expect(cannotMatch(bytes, start, start + line.length, words), `${line} / ${words.join(" ")}`).toBe(true);
          start += line.length + 1;
        }
      }
    }
  });

  it("passes over the lines lacking a word, and stops at a line too long for it", () => {
    const text = LINES.join("\n") + "\n";
    const found = flagLines(text, caselessPatterns(["8405"]));
    expect(found.flagged.length / 2).toBe(3); // the op id's line, the escape, the failed call
    const long = `${LINES[0]}\n${"x".repeat(FAST_LINE_MAX + 1)}\n${LINES[1]}\n`;
    const cut = flagLines(long, caselessPatterns(["8405"]));
    expect(cut.lines).toBe(1);
    expect(cut.stop).toBe(LINES[0]!.length + 1);
  });
});

/** Every line `found` passes over is one cannotMatch rules out (with the same `failed`). */
function expectSafe(found: FlaggedLines, lines: readonly string[], words: string[], failed: boolean): void {
  const flagged = new Set<number>();
  for (let i = 0; i < found.flagged.length; i += 2) flagged.add(found.flagged[i]!);
  const bytes = Buffer.from(lines.join("\n") + "\n", "latin1");
  let start = 0;
  for (const line of lines) {
    if (!flagged.has(start)) expect(cannotMatch(bytes, start, start + line.length, words, failed), `${line} / ${words.join(" ")}`).toBe(true);
    start += line.length + 1;
  }
}

describe("flagBytes, the pre-filter on the bytes themselves", () => {
  it("flags every line cannotMatch would not rule out, counts every line, or leaves the piece to flagLines", () => {
    const bytes = Buffer.from(LINES.join("\n") + "\n", "latin1");
    let declined = 0;
    for (const a of WORDS) {
      for (const b of [...WORDS, null]) {
        const words = b === null ? [a] : [...new Set([a, b])];
        for (const failed of [true, false]) {
          const found = flagBytes(bytes, byteWords(words), failed);
          if (found === null) {
            declined += 1;
            continue;
          }
          expect(found.lines).toBe(LINES.length);
          expect(found.stop).toBe(bytes.length);
          expectSafe(found, LINES, words, failed);
        }
      }
    }
    // Words whose every letter-bearing form has an upper-case letter in these lines (T, F, L…) are left to flagLines.
    expect(declined).toBeGreaterThan(0);
  });

  it("finds a word in upper case only by leaving such bytes to flagLines", () => {
    const lines = [JSON.stringify({ tool_name: "LINT.RUN", result: "ok" }), JSON.stringify({ tool_name: "x.y", result: "ok" })];
    const bytes = Buffer.from(lines.join("\n") + "\n");
    expect(flagBytes(bytes, byteWords(["lint"]))).toBeNull();
    const digits = flagBytes(bytes, byteWords(["8405"]))!;
    expect(digits.flagged).toEqual([]);
    expect(digits.lines).toBe(2);
  });

  it("flags failed calls only when their ledger message can count, and stops at a line too long for it", () => {
    const bytes = Buffer.from(LINES.join("\n") + "\n", "latin1");
    expect(flagBytes(bytes, byteWords(["8405"]))!.flagged.length / 2).toBe(3); // the op id's line, the escape, the failed call
    expect(flagBytes(bytes, byteWords(["8405"]), false)!.flagged.length / 2).toBe(2);
    const long = Buffer.from(`${LINES[1]}\n${"x".repeat(FAST_LINE_MAX + 1)}\n${LINES[1]}\n`);
    const cut = flagBytes(long, byteWords(["8405"]))!;
    expect(cut.lines).toBe(1);
    expect(cut.stop).toBe(LINES[1]!.length + 1);
  });
});
