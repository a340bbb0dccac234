// The files that make the package one people can adopt stay true: the licence, the changelog's entry
// for this version, the contributor guide, and an index that links every document — each linked from
// the README, every relative link resolving.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/paths.js";

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const pkg = JSON.parse(read("package.json")) as { version: string; license: string; files: string[] };

/** The relative link targets of a Markdown file, without anchors. */
function links(file: string): string[] {
  return [...read(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
}

describe("the package's own files", () => {
  it("MIT in package.json and in LICENSE", () => {
    expect(pkg.license).toBe("MIT");
    expect(read("LICENSE")).toMatch(/^MIT License\n/);
  });

  it("the changelog has an entry for this version, and ships with the package", () => {
    expect(read("CHANGELOG.md")).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`, "m"));
    expect(pkg.files).toContain("CHANGELOG.md");
  });

  it("docs/README.md links every document under docs/", () => {
    const indexed = new Set(links("docs/README.md"));
    const docs = fs.readdirSync(path.join(REPO_ROOT, "docs")).filter((f) => f.endsWith(".md") && f !== "README.md");
    expect(docs.filter((doc) => !indexed.has(doc))).toEqual([]);
  });

  it("the README links the licence, the changelog, the contributor guide and the documents' index", () => {
    expect(links("README.md")).toEqual(expect.arrayContaining(["LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "docs/README.md", "docs/runtimes.md"]));
  });

  it.each(["README.md", "docs/README.md", "CONTRIBUTING.md", "CHANGELOG.md", "docs/runtimes.md"])("every relative link of %s resolves", (file) => {
    const missing = links(file).filter((target) => !fs.existsSync(path.resolve(REPO_ROOT, path.dirname(file), target)));
    expect(missing).toEqual([]);
  });
});
