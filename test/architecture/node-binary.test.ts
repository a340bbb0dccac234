// The Node binary of a line (scripts/node-binary.mjs), installed when missing: .ci/run reads its path
// from stdout (`node24="$(…)"`), so npm's own report of the install must not reach stdout. A stand-in
// `npm` on PATH installs a stand-in binary the way the registry's `node` package lays it out, and says
// "added 1 package" on its stdout as npm does.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/tmp.js";

function standInNpm(): string {
  const bin = tempDir("aop-npm-");
  const npm = path.join(bin, "npm");
  // npm install --prefix <prefix> … node@<line>: a `node` that answers --version with that line.
  fs.writeFileSync(
    npm,
    [
      "#!/bin/sh",
      'while [ "$1" != "--prefix" ]; do shift; done',
      'prefix="$2"',
      'mkdir -p "$prefix/node_modules/node/bin"',
      `printf '#!/bin/sh\\necho v24.16.0\\n' > "$prefix/node_modules/node/bin/node"`,
      'chmod +x "$prefix/node_modules/node/bin/node"',
      "echo",
      'echo "added 1 package in 1s"',
      "",
    ].join("\n"),
  );
  fs.chmodSync(npm, 0o755);
  return bin;
}

describe("nodeOf", () => {
  it("prints only the binary's path on stdout when it installs one (npm's report goes to stderr)", () => {
    const cache = tempDir("aop-node-cache-");
    const script = 'import("./scripts/node-binary.mjs").then((m) => console.log(m.nodeOf("24")))';
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      env: { ...process.env, PATH: `${standInNpm()}${path.delimiter}${process.env.PATH ?? ""}`, AOP_NODE_MATRIX_CACHE: cache },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${path.join(cache, "node-24", "node_modules", "node", "bin", "node")}\n`);
    expect(r.stderr).toContain("added 1 package");
  });
});
