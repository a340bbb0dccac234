#!/usr/bin/env node
// Entry point of `continuity-doctor` (= `aop continuity doctor`). CommonJS on purpose: with the
// one-file CommonJS build of the command (scripts/bundle-bins.mjs) it starts ~15 ms sooner than an
// ES module entry would. The modular build serves when the bundle is absent.
"use strict";

let bundle = null;
try {
  bundle = require("../dist/adapters/cli/continuity-doctor-bin.bundle.cjs");
} catch (err) {
  if (err.code !== "MODULE_NOT_FOUND" || !String(err.message).includes("continuity-doctor-bin.bundle")) throw err;
}
(bundle ? Promise.resolve(bundle) : import("../dist/adapters/cli/continuity-doctor-bin.js")).then((entry) => entry.main(process.argv.slice(2)));
