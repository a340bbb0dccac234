#!/usr/bin/env node
// Entry point of `continuity-doctor` (= `aop continuity doctor`). Loads the one-file build of the
// command (scripts/bundle-bins.mjs) for start-up time; the modular build serves when it is absent.
let entry;
try {
  entry = await import("../dist/cli/continuity-doctor-bin.bundle.js");
} catch (err) {
  if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes("continuity-doctor-bin.bundle")) throw err;
  entry = await import("../dist/cli/continuity-doctor-bin.js");
}
await entry.main(process.argv.slice(2));
