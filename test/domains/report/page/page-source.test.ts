// The page builds its elements from text only: no API that parses markup appears in its sources.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../helpers/paths.js";

const PAGE = path.join(REPO_ROOT, "src", "domains", "report", "page");

describe("the report page's sources", () => {
  it("never parse data as HTML", () => {
    for (const name of fs.readdirSync(PAGE).filter((f) => f.endsWith(".ts"))) {
      const text = fs.readFileSync(path.join(PAGE, name), "utf8");
      expect(text, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment|\beval\(|new Function/);
    }
  });
});
