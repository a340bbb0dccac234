import { describe, expect, it } from "vitest";
import { tokenize, tokensMatch } from "../../../src/core/search-words.js";
import { cannotMatch } from "../../../src/domains/search/search-steps.js";

// Lines as different writers leave them: aop's (JSON.stringify), one escaping every non-ASCII character
// (Python's json.dumps), hostile values, a failed call.
const LINES = [
  JSON.stringify({ tool_name: "feature.init", feature_id: "Login-Page", result: "ok", error_code: null }),
  JSON.stringify({ tool_name: "feature.get", feature_id: "café", result: "ok" }),
  '{"tool_name": "feature.get", "feature_id": "caf\\u00e9", "result": "ok"}',
  JSON.stringify({ tool_name: "x\u001b[31mred", feature_id: "a\nb\tc", result: "ok" }),
  '{"tool_name": "feature.set_status", "result": "error", "error_code": "version_conflict"}',
];
const WORDS = ["login", "page", "café", "caf", "feature", "init", "red", "31m", "nb", "b", "version", "conflict", "zzz", "error", "ok", "u00e9"];

function fieldTokens(line: string): string[] {
  const value = JSON.parse(line) as Record<string, unknown>;
  return tokenize(Object.values(value).filter((v): v is string => typeof v === "string").join(" "));
}

describe("cannotMatch, the raw-line pre-filter of a scan", () => {
  it("never rules out a line whose fields hold the words (it is a necessary condition only)", () => {
    for (const line of LINES) {
      const bytes = Buffer.from(line, "utf8");
      for (const a of WORDS) {
        for (const b of WORDS) {
          const words = [...new Set([a, b])];
          if (cannotMatch(bytes, 0, bytes.length, words)) expect(tokensMatch(fieldTokens(line), words), `${line} ${words.join(" ")}`).toBe(false);
        }
      }
    }
  });

  it("rules out plain ASCII lines missing a word, and leaves to parsing the lines it cannot judge", () => {
    const plain = Buffer.from(LINES[0]!);
    expect(cannotMatch(plain, 0, plain.length, ["zzz"])).toBe(true);
    expect(cannotMatch(plain, 0, plain.length, ["login", "zzz"])).toBe(true);
    expect(cannotMatch(plain, 0, plain.length, ["login"])).toBe(false);
    expect(cannotMatch(plain, 0, plain.length, [])).toBe(false);
    for (const i of [1, 2, 4]) {
      const bytes = Buffer.from(LINES[i]!);
      expect(cannotMatch(bytes, 0, bytes.length, ["zzz"]), LINES[i]).toBe(false); // non-ASCII, \u escape, failed call
    }
  });
});
