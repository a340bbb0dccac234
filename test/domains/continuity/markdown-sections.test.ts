import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findSection, normalizeHeading, parseMarkdownSections, proseLines } from "../../../src/domains/continuity/markdown-sections.js";

const bodyOf = (text: string, name: string) => findSection(parseMarkdownSections(text), name)?.body;

describe("parseMarkdownSections", () => {
  it("a section runs to the next heading of the same or a higher level", () => {
    const text = "# State\n## A\none\n### A.1\nnested\n## B\ntwo\n# Other\nthree";
    expect(bodyOf(text, "A")).toBe("one\n### A.1\nnested");
    expect(bodyOf(text, "B")).toBe("two");
    expect(bodyOf(text, "State")).toBe("## A\none\n### A.1\nnested\n## B\ntwo");
  });

  it("a thematic break (---, ***, ___, spaced) ends the section: trailing notes are not its content", () => {
    for (const rule of ["---", "***", "___", "- - -", " * * * ", "-----"]) {
      expect(bodyOf(`## Unsurfaced Results\nNone\n\n${rule}\nNotes: 3 failures\n`, "Unsurfaced Results"), rule).toBe("None");
    }
  });

  it("a list item or table rule is not a break", () => {
    expect(bodyOf("## A\n- item\n-- x\n|---|---|\n", "A")).toBe("- item\n-- x\n|---|---|");
  });

  it("`#` lines inside fenced code are not headings, and a --- inside a fence is not a break", () => {
    const text = "## A\n```bash\n# a shell comment\n---\n```\nafter\n~~~~\n## not a heading\n~~~~\n## B\nb";
    expect(bodyOf(text, "A")).toBe("```bash\n# a shell comment\n---\n```\nafter\n~~~~\n## not a heading\n~~~~");
    expect(parseMarkdownSections(text).map((s) => s.name)).toEqual(["a", "b"]);
  });

  it("a fence closes only with the same character, at least as long", () => {
    const text = "## A\n````\n```\n## still code\n````\n## B\n";
    expect(parseMarkdownSections(text).map((s) => s.name)).toEqual(["a", "b"]);
  });

  it("an unclosed fence runs to the end of the document", () => {
    expect(parseMarkdownSections("## A\n```\n## B\n").map((s) => s.name)).toEqual(["a"]);
  });

  it("needs a space after the #s, at most three spaces of indentation and at most six #s", () => {
    expect(parseMarkdownSections("#hashtag\n    # indented code\n####### seven\n   ### ok").map((s) => s.title)).toEqual(["ok"]);
  });

  it("reads CRLF files and a UTF-8 BOM", () => {
    expect(bodyOf("\uFEFF## Objective\r\nShip it\r\n\r\n## Next", "objective")).toBe("Ship it");
  });

  it("reads setext headings: text underlined with === (level 1) or --- (level 2)", () => {
    const text = "Objective\n=========\nShip it\n\nNext\nAction\n  ---\nWrite tests\n## Blockers\nNone";
    expect(parseMarkdownSections(text).map((s) => [s.title, s.level, s.line])).toEqual([["Objective", 1, 1], ["Next Action", 2, 5], ["Blockers", 2, 9]]);
    expect(bodyOf(text, "Objective")).toBe("Ship it\n\nNext\nAction\n  ---\nWrite tests\n## Blockers\nNone");
    expect(bodyOf(text, "Next Action")).toBe("Write tests");
    expect(proseLines(bodyOf(text, "Objective")!)).toEqual(["Ship it", "Next", "Action", "Write tests", "## Blockers", "None"]);
  });

  it("a --- is a setext underline only under paragraph text: after a blank line, a list item, a quote or a heading it is a break", () => {
    for (const before of ["Text\n", "- item", "> quote", "## B", "    indented code"]) {
      const sections = parseMarkdownSections(`## A\n${before}\n---\nafter`);
      expect(sections.map((s) => s.name), before).not.toContain("after");
      expect(bodyOf(`## A\n${before}\n---\nafter`, "A") ?? "", before).not.toContain("after");
    }
    expect(parseMarkdownSections("===\ntext").map((s) => s.name)).toEqual([]);
  });

  it("records the heading line (1-based) and level", () => {
    const [a, b] = parseMarkdownSections("intro\n\n# A\ntext\n### B");
    expect(a).toMatchObject({ title: "A", level: 1, line: 3 });
    expect(b).toMatchObject({ title: "B", level: 3, line: 5 });
  });

  it("never throws, and every section's heading line is inside the document", () => {
    const line = fc.oneof(fc.constantFrom("# h", "## Objective", "---", "```", "~~~", "- [ ] x", "", "***"), fc.string({ maxLength: 20 }));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const text = lines.join("\n");
        for (const s of parseMarkdownSections(text)) {
          expect(s.line).toBeGreaterThanOrEqual(1);
          expect(s.line).toBeLessThanOrEqual(lines.length);
          expect(s.level).toBeGreaterThanOrEqual(1);
          expect(s.level).toBeLessThanOrEqual(6);
        }
      }),
    );
  });
});

describe("normalizeHeading", () => {
  it.each([
    ["Objective", "objective"],
    ["  Next   Action:  ", "next action"],
    ["**Blockers**:", "blockers"],
    ["_Key Decisions_", "key decisions"],
    ["UNSURFACED RESULTS：", "unsurfaced results"],
    ["`Current Step`", "current step"],
  ])("%j → %j", (title, name) => expect(normalizeHeading(title)).toBe(name));
});

describe("proseLines", () => {
  it("drops code blocks, HTML comments and blank lines", () => {
    expect(proseLines("a\n\n```\ncode\n```\n<!-- hidden\nstill hidden -->\n  b  ")).toEqual(["a", "b"]);
  });
});
