#!/usr/bin/env node
// Entry point. Two routes (docs/startup.md): `aop hook <client>`, which runs after every tool call of an
// agent, loads the hook's own small bundle; everything else loads the one CLI bundle, whose commands
// load when they run. Both start from V8's code cache (bin/load-bundle.cjs). `--version` (with `--json`
// and `--root` beside it) is answered before any module of aop loads (bin/version.cjs). CommonJS
// (bin/package.json says so; the path stays bin/aop.js, which hooks and client configurations name):
// Node starts a CommonJS program sooner than an ES module one.
"use strict";

const argv = process.argv.slice(2);
// The clients whose hooks run from the hook's bundle (src/domains/agents/hook-model.ts names the others).
const HOOK_CLIENTS = ["claude", "codex", "gemini", "cursor", "opencode", "openclaw"];
const versionRequest = (argv.includes("--version") || argv.includes("-V")) && require("./version.cjs").versionRequest(argv);

if (versionRequest) {
  require("./version.cjs").printVersion(versionRequest, require("node:path").join(__dirname, ".."));
} else if (argv.length === 2 && argv[0] === "hook" && HOOK_CLIENTS.includes(argv[1])) {
  require("./dist-bundle.cjs").run("hook/hook.bundle.cjs", "hookMain", { client: argv[1] });
} else {
  require("./dist-bundle.cjs").run("cli/cli.bundle.cjs", "main", argv);
}
