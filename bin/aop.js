#!/usr/bin/env node
// Entry point. CommonJS (bin/package.json says so; the path stays bin/aop.js, which hooks and client
// configurations name): Node starts a CommonJS program sooner than an ES module one, and the routes
// that run many times a day load one-file CommonJS bundles started from V8's cached bytecode
// (bin/load-bundle.cjs, docs/startup.md). `--version` is answered before any module loads;
// `aop hook claude` goes straight to its handler; the program's help, a plain `aop checkpoint
// validate`, `aop replay --run-id …`, `aop evidence verify`, `aop doctor` and `aop mcp` take their own bundles; everything else, and every route when
// the build made no bundle, loads the modular build.
"use strict";

const path = require("node:path");

const argv = process.argv.slice(2);
const dist = path.join(__dirname, "..", "dist");

/** A route's bundle (scripts/bundle-bins.mjs), else its module of the modular build. */
function route(bundle, modular) {
  const loaded = require("./load-bundle.cjs").loadBundle(path.join(dist, bundle));
  return loaded ?? import(`../dist/${modular}`);
}

async function main() {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    const pkg = JSON.parse(require("node:fs").readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
    process.stdout.write(`${pkg.version}\n`);
    return;
  }
  // The Claude Code hook runs after every tool call of the agent: straight to its handler.
  if (argv.length === 2 && argv[0] === "hook" && argv[1] === "claude") {
    await (await route("hook/hook.bundle.cjs", "adapters/hooks/hook-main.js")).hookMain();
    return;
  }
  if (argv[0] === "checkpoint" && argv.includes("validate") && (await (await route("adapters/cli/checkpoint/fast-path.bundle.cjs", "adapters/cli/checkpoint/fast-path.js")).tryFastValidate(argv.slice(1)))) return;
  if (argv.includes("replay") && (await (await route("replay-cli/fast-path.bundle.cjs", "adapters/cli/replay-fast-path.js")).tryFastReplay(argv))) return;
  if (argv.includes("evidence") && argv.includes("verify") && (await (await route("evidence-cli/verify.bundle.cjs", "adapters/cli/evidence-verify-fast-path.js")).tryFastVerify(argv))) return;
  // CI and every session start: the doctor (not `aop continuity doctor`, which the full program runs).
  if (argv.includes("doctor") && argv[argv.indexOf("doctor") - 1] !== "continuity" && (await (await route("doctor-cli/fast-path.bundle.cjs", "adapters/cli/doctor-fast-path.js")).tryFastDoctor(argv))) return;
  // Every agent start: the MCP server.
  if (argv.includes("mcp") && (await (await route("mcp-cli/fast-path.bundle.cjs", "adapters/cli/mcp-fast-path.js")).tryFastMcp(argv))) return;
  // A reader that stops early (`aop … | head`) is not an error. (The routes above write without process.stdout when they can.)
  process.stdout.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
  const programHelp = argv.length === 0 || (argv.length === 1 && ["--help", "-h", "help"].includes(argv[0]));
  if (programHelp && (await (await route("adapters/cli/help-fast-path.bundle.cjs", "adapters/cli/help-fast-path.js")).tryFastHelp(argv))) return;
  const { main: program } = await import("../dist/adapters/cli/main.js");
  await program(argv);
}

main();
