// The one escaping rule for text from agents (docs/hardening.md): the terminal and the report page
// differ only in which line breaks they keep.
import { describe, expect, it } from "vitest";
import { escapeHidden, KEEP_LINES } from "../../src/core/escape-hidden.js";

describe("escapeHidden", () => {
  it("shows controls, separators, zero-width and bidi characters as escapes", () => {
    expect(escapeHidden("a\u0000\u001b[2J\u007f\u0085\u2028\u2029\u200b\u202e\u2066\ufeffb")).toBe("a\\x00\\x1b[2J\\x7f\\x85\\u2028\\u2029\\u200b\\u202e\\u2066\\ufeffb");
    expect(escapeHidden("a\tb\nc\rd")).toBe("a\\tb\\nc\\rd");
    expect(escapeHidden("plain €😀 text")).toBe("plain €😀 text");
  });

  it("keeps only the characters its caller names", () => {
    expect(escapeHidden("a\tb\nc\rd\u2028", KEEP_LINES)).toBe("a\tb\nc\\rd\\u2028");
    expect(escapeHidden("a\tb\nc\rd\u2028\u202e", KEEP_LINES + "\u2028\u2029")).toBe("a\tb\nc\\rd\u2028\\u202e");
  });
});
