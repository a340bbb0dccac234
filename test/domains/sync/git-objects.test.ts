// Tree ids computed in process must be git's own: checked against `git mktree` and `git write-tree` of
// the same files, including the names whose order depends on git's rule that a folder sorts as "name/".
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { blobOid, treeOid, writeTree } from "../../../src/domains/sync/git-objects.js";
import { git } from "../../helpers/sync-machines.js";
import { tempDir } from "../../helpers/tmp.js";

describe("git objects computed in process", () => {
  for (const format of ["sha1", "sha256"] as const) {
    it(`names trees as git does (${format})`, () => {
      const root = tempDir();
      git(root, ["init", "-q", `--object-format=${format}`]);
      const files: Record<string, string> = { "a.b": "1\n", "a/x": "2\n", "a-c": "3\n", "a/y/z.json": "4\n", "ab/q": "5\n", "workspace.json": "{}\n" };
      for (const [p, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
        fs.writeFileSync(path.join(root, p), text);
      }
      git(root, ["add", "-A"]);
      const fromIndex = git(root, ["write-tree"]).trim();
      const treeFiles = Object.entries(files).map(([treePath, text]) => ({ treePath, oid: blobOid(Buffer.from(text), format) }));
      expect(writeTree(root, treeFiles, format)).toBe(fromIndex);
      const leaf = [{ name: "z.json", oid: blobOid(Buffer.from("4\n"), format), tree: false }];
      expect(treeOid(leaf, format)).toBe(git(root, ["mktree"], `100644 blob ${leaf[0]!.oid}\tz.json\n`).trim());
    });
  }
});
