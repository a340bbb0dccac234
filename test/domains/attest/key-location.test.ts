// Where a private key may live: the path logic under `aop keys init`'s refusal (key-location.ts).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assertKeyOutsideWorkTrees, isWithin, nearestWorkTree, resolveExistingPart } from "../../../src/domains/attest/key-location.js";
import { tempDir } from "../../helpers/tmp.js";

describe("key location", () => {
  it.each([
    ["/a/b", "/a/b", true],
    ["/a/b", "/a/b/c.key", true],
    ["/a/b", "/a/bc/d.key", false],
    ["/", "/x.key", true],
    ["/a/b/", "/a/b/c", true],
  ])("isWithin(%s, %s) = %s", (parent, child, expected) => {
    expect(isWithin(parent, child)).toBe(expected);
  });

  it("nearestWorkTree walks up to the file-system root, nearest first", () => {
    expect(nearestWorkTree("/home/u/.config/aop/keys", (d) => d === "/home/u" || d === "/home")).toBe("/home/u");
    expect(nearestWorkTree("/home/u/.config/aop/keys", (d) => d === "/")).toBe("/");
    expect(nearestWorkTree("/home/u/.config/aop/keys", () => false)).toBeNull();
  });

  it("resolveExistingPart resolves the links of the part that exists and keeps the rest as written", () => {
    const real = fs.realpathSync(tempDir());
    const outer = fs.realpathSync(tempDir());
    fs.symlinkSync(real, path.join(outer, "link"));
    expect(resolveExistingPart(path.join(outer, "link", "not", "yet", "k.key"))).toBe(path.join(real, "not", "yet", "k.key"));
    expect(resolveExistingPart(path.join(outer, "link"))).toBe(real);
    expect(resolveExistingPart("/nonexistent-aop-dir/x/k.key")).toBe("/nonexistent-aop-dir/x/k.key");
  });

  it("refuses a path under the workspace or a .git, allows one elsewhere", () => {
    const ws = fs.realpathSync(tempDir());
    const free = fs.realpathSync(tempDir());
    const place = (file: string) => ({ file, explicit: true, defaultDir: "/cfg/aop/keys" });
    expect(() => assertKeyOutsideWorkTrees(place(path.join(ws, "k.key")), ws)).toThrow(expect.objectContaining({ code: "signing_key_misplaced", details: expect.objectContaining({ workspace: ws }) }));
    expect(() => assertKeyOutsideWorkTrees(place(path.join(free, "k.key")), ws)).not.toThrow();
    fs.mkdirSync(path.join(free, ".git"));
    expect(() => assertKeyOutsideWorkTrees(place(path.join(free, "a", "k.key")), ws)).toThrow(expect.objectContaining({ code: "signing_key_misplaced", details: expect.objectContaining({ work_tree: free }) }));
  });
});
