import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assertContained, containedWritePath, folderEscape, linkEscape } from "../../src/store/containment.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { tempDir, tempWorkspace, writeFile } from "../helpers/tmp.js";

describe("containment: links may lead anywhere inside the workspace, nowhere out of it", () => {
  const root = tempWorkspace();
  new WorkspaceLayout(root);
  const outside = tempDir("aop-out-");

  it.each([
    ["the root itself", () => root, null],
    ["a plain file", () => writeFile(root, "a/b.json", "{}"), null],
    ["a path that does not exist yet", () => path.join(root, "new/deeper/file.json"), null],
    ["a path outside every workspace", () => path.join(outside, "x.json"), null],
  ])("%s is fine", (_name, target, expected) => {
    expect(linkEscape(target())).toBe(expected);
    expect(() => assertContained(target())).not.toThrow();
  });

  it("a folder link out of the workspace is refused for everything below it, existing or not", () => {
    fs.symlinkSync(outside, path.join(root, "out-dir"));
    const real = fs.realpathSync(outside);
    expect(folderEscape(path.join(root, "out-dir", "x.json"))).toBe(real);
    expect(folderEscape(path.join(root, "out-dir", "not", "yet", "x.json"))).toBe(real);
    expect(() => assertContained(path.join(root, "out-dir"))).toThrow(expect.objectContaining({ code: "path_outside_workspace", message: expect.stringMatching(/^out-dir leads outside the workspace/) }));
  });

  it("a file link out is refused; a dangling one too, by where it would create its file", () => {
    fs.symlinkSync(writeFile(outside, "secret.json", "s"), path.join(root, "leak.json"));
    expect(() => containedWritePath(path.join(root, "leak.json"))).toThrow(expect.objectContaining({ code: "path_outside_workspace" }));
    fs.symlinkSync(path.join(outside, "not-there.json"), path.join(root, "dangling.json"));
    expect(linkEscape(path.join(root, "dangling.json"))).toBe(path.join(fs.realpathSync(outside), "not-there.json"));
  });

  it("a link inside the workspace is written through to its real file, keeping the link", () => {
    const target = writeFile(root, "shared/state.json", "{}");
    fs.symlinkSync(target, path.join(root, "inside.json"));
    expect(containedWritePath(path.join(root, "inside.json"))).toBe(fs.realpathSync(target));
    fs.symlinkSync(path.join(root, "shared"), path.join(root, "inside-dir"));
    expect(containedWritePath(path.join(root, "inside-dir", "x.json"))).toBe(path.join(root, "inside-dir", "x.json"));
  });

  it("a scan's memo checks each folder once", () => {
    const memo = new Set<string>();
    const file = writeFile(root, "many/one.json", "{}");
    expect(folderEscape(file, memo)).toBeNull();
    expect(memo.has(path.dirname(file))).toBe(true);
  });
});
