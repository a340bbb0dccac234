// Finds, loads and runs a bundle of dist/ for the bins. A build swaps a complete new dist/ in with two
// renames (scripts/build-swap.mjs): a start that falls between them finds no dist/ for a moment and
// looks again. A checkout that was never built gets a sentence, not a stack trace.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { loadBundle } = require("./load-bundle.cjs");

const DIST = path.join(__dirname, "..", "dist");
/** How long a start waits for a build's swap to complete (it takes microseconds; a loaded machine stalls). */
const SWAP_WAIT_MS = 2000;

function load(bundle) {
  const file = path.join(DIST, bundle);
  const deadline = Date.now() + SWAP_WAIT_MS;
  for (;;) {
    const before = fs.existsSync(DIST);
    const exports = loadBundle(file);
    if (exports !== null) return exports;
    // No dist/ before or after the load is the gap between a build's two renames: load again once it is
    // back. A dist/ there on both sides of a failed load has no bundle: this copy is not built.
    const after = fs.existsSync(DIST);
    if ((before && after) || Date.now() > deadline) break;
    if (!after) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
  process.stderr.write(`error not_built: ${file} is missing: this copy of aop is not built (run \`npm run build\`)\n`);
  process.exit(1);
}

/** Runs a bundle's entry; what escapes it (a bug: commands report their own errors) is an error line, not a stack trace. */
function run(bundle, entry, ...args) {
  Promise.resolve()
    .then(() => load(bundle)[entry](...args))
    .catch((err) => {
      process.stderr.write(`error internal_error: ${err instanceof Error ? err.message : String(err)}\n`);
      if (process.env.AOP_DEBUG === "1" && err instanceof Error) process.stderr.write(`${err.stack}\n`);
      process.exitCode = 1;
    });
}

module.exports = { load, run };
