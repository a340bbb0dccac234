import { describe, expect, it } from "vitest";
import { findPlaceholders, isOnlyPlaceholders, isPlaceholderLine, lineContent } from "../../../src/domains/continuity/placeholders.js";

describe("isPlaceholderLine (a whole line that is a template slot)", () => {
  it.each([
    "[One sentence: what are we trying to accomplish]",
    "[ISO timestamp]",
    "[TODO]",
    "<fill in>",
    "<your objective here>",
    "TODO",
    "tbd.",
    "FIXME:",
    "...",
    "…",
    "(fill in)",
    "Placeholder",
  ])("%j is a placeholder", (line) => expect(isPlaceholderLine(line)).toBe(true));

  it.each([
    "None",
    "Build the parser",
    "[x]",
    "[^1]",
    "[12]",
    "[link](https://example.com)",
    "<https://example.com>",
    "<me@example.com>",
    "<br>",
    "<details>",
    "</div>",
    "<!-- comment -->",
    "TODO: call the vendor about the API key",
    ".",
  ])("%j is content", (line) => expect(isPlaceholderLine(line)).toBe(false));
});

describe("lineContent", () => {
  it("strips quote and list markers, a checkbox and emphasis", () => {
    expect(lineContent("> - [ ] **[TODO]**")).toBe("[TODO]");
    expect(lineContent("1. _None_")).toBe("None");
  });
});

describe("findPlaceholders", () => {
  it("finds whole-line slots and bracketed marker words inside a line, once each", () => {
    expect(findPlaceholders("Deploy <fill in> to [TODO]\n[TODO]\n- {{ next_step }}")).toEqual(["<fill in>", "[TODO]", "{{ next_step }}"]);
  });

  it("ignores code blocks", () => {
    expect(findPlaceholders("```\n[TODO]\n```")).toEqual([]);
  });

  it("shortens a long placeholder for the message", () => {
    const [found] = findPlaceholders(`[${"x".repeat(200)}]`);
    expect(found!.length).toBe(80);
    expect(found!.endsWith("…")).toBe(true);
  });
});

describe("isOnlyPlaceholders", () => {
  it("is true only when every prose line is a slot", () => {
    expect(isOnlyPlaceholders("[One sentence: ...]\n\n- TBD")).toBe(true);
    expect(isOnlyPlaceholders("[One sentence: ...]\nreal text")).toBe(false);
    expect(isOnlyPlaceholders("")).toBe(false);
  });
});
