// `aop --version`: the package version, the Node running it and the workspace a command run here would
// use — answered by bin/aop.js before any module of aop loads, so it costs what `node -e 0` costs.
// The workspace follows the root rule of src/store/workspace-root.ts (--root, else AOP_ROOT, else the
// nearest ancestor holding a marker, never /); test/adapters/cli/version.test.ts holds the two together.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const MARKERS = [".aop", path.join("agentic", "orchestrator"), ".git"];

/** `--version` (or `-V`) with nothing beside it but `--json` and `--root <dir>`: the request, else null. */
function versionRequest(argv) {
  let asked = false;
  let json = false;
  let root;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--version" || arg === "-V") asked = true;
    else if (arg === "--json") json = true;
    else if (arg === "--root" && i + 1 < argv.length) root = argv[++i];
    else if (arg.startsWith("--root=")) root = arg.slice("--root=".length);
    else return null;
  }
  return asked ? { json, root } : null;
}

function isFolder(dir) {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The workspace root, or why there is none. */
function workspaceOf(root, env, cwd) {
  for (const [value, source] of [
    [root, "--root"],
    [env.AOP_ROOT, "AOP_ROOT"],
  ]) {
    if (value === undefined) continue;
    const dir = path.resolve(cwd, value);
    if (value !== "" && isFolder(dir)) return { dir };
    return { why: value === "" ? `${source} is empty` : `${source} ${dir} is not a folder` };
  }
  for (let dir = path.resolve(cwd); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (MARKERS.some((marker) => fs.existsSync(path.join(dir, marker)))) return { dir };
  }
  return { why: `no .aop/, agentic/orchestrator/ or .git/ from ${path.resolve(cwd)} up (\`aop init\` makes one)` };
}

function printVersion(request, packageRoot) {
  const { version } = JSON.parse(fs.readFileSync(path.join(packageRoot, "package.json"), "utf8"));
  const workspace = workspaceOf(request.root, process.env, process.cwd());
  const text = request.json
    ? `${JSON.stringify({ version, node: process.version, workspace: workspace.dir ?? null }, null, 2)}\n`
    : `${version}\nnode ${process.version} (${process.platform}-${process.arch})\nworkspace ${workspace.dir ?? `none: ${workspace.why}`}\n`;
  process.stdout.write(text);
}

module.exports = { versionRequest, printVersion };
