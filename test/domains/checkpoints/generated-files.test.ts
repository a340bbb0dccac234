// How a context_primer.generated_files entry is read (docs/checkpoints.md "`doctor`"): the shapes the
// reference repository's own checkpoints use, read as its CLI reads them.
import { describe, expect, it } from "vitest";
import { namedGeneratedPath } from "../../../src/domains/checkpoints/generated-files.js";

describe("namedGeneratedPath", () => {
  it.each([
    ["src/app.ts", "src/app.ts"],
    ["README.md", "README.md"],
    ["/abs/out/report.html", "/abs/out/report.html"],
    [".checkpoints/orchestrator.checkpoint.json (this file, updated)", ".checkpoints/orchestrator.checkpoint.json"],
    ["scripts/gen.mjs (PR 1, 4cb0b09)", "scripts/gen.mjs"],
    ["skills/packs/typescript/pack.yml updated with frameworks: [remix, solid] (PR 4)", "skills/packs/typescript/pack.yml"],
    ["tests/a.test.js + tests/b.test.js (PR 3)", "tests/a.test.js"],
    ["  docs/plan.md  ", "docs/plan.md"],
  ])("%j names %j", (entry, path) => {
    expect(namedGeneratedPath(entry)).toBe(path);
  });

  it.each([
    ["brace shorthand", "skills/packs/{typescript,python}/{pack.yml,language.md} (PR 2)"],
    ["a glob", "site/public/*.html"],
    ["prose", "Branch ref claude/add-upgrade-instructions — squash-merged & deletable"],
    ["a word", "None"],
    ["a URL", "https://example.com/report.html"],
    ["empty", ""],
    ["not text", 42],
  ])("%s names no path", (_what, entry) => {
    expect(namedGeneratedPath(entry)).toBeNull();
  });
});
