import { describe, expect, it } from "vitest";
import { cannotMatch } from "../../../src/domains/search/search-steps.js";
import { caselessPatterns, FAST_LINE_MAX, flagLines } from "../../../src/domains/search/search-prefilter.js";

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
