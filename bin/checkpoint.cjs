#!/usr/bin/env node
// Entry point of `checkpoint` (= `aop checkpoint`). CommonJS on purpose: a plain `checkpoint validate`
// (git hooks, CI) runs from one bundled file of the compiled modules, started from V8's cached
// bytecode (bin/load-bundle.cjs), and a CommonJS entry starts ~15 ms sooner than an ES module one.
// Anything else goes through the commander program; the modular build serves when there is no bundle.
"use strict";

const path = require("node:path");
const { loadBundle } = require("./load-bundle.cjs");

async function tryFastValidate(argv) {
  if (!argv.includes("validate")) return false;
  const fastPath = loadBundle(path.join(__dirname, "..", "dist", "adapters", "cli", "checkpoint", "fast-path.bundle.cjs")) ?? (await import("../dist/adapters/cli/checkpoint/fast-path.js"));
  return fastPath.tryFastValidate(argv);
}

async function main(argv) {
  if (await tryFastValidate(argv)) return;
  // A reader that stops early (`checkpoint status | head`) is not an error.
  process.stdout.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
  const { runCheckpointProgram } = await import("../dist/adapters/cli/checkpoint-program.js");
  await runCheckpointProgram(argv);
}

main(process.argv.slice(2));
