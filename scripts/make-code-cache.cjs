// Build step, run in a fresh `node` (the flags V8 checks must be those of the bins) with
// AOP_BUNDLE_LOADER=vm: loads a bundle the way bin/load-bundle.cjs does on Node 20, runs its entry on
// sample input so that V8 compiles the functions a real run needs, then writes V8's code cache for this
// runtime beside the bundle and beside each of its chunks (bin/load-bundle.cjs names them).
// The bundle's own cache holds what the first run compiled, the chunks' what every run did: V8 reads a
// whole cache at every start, and the bundle is read by every start, so it holds what the most frequent
// start runs (the sample's first: a tool event for the hook, `checkpoint next` for the CLI), not what
// each start uses part of (docs/performance.md). A function a cache lacks is compiled when first called.
// Usage: node scripts/make-code-cache.cjs <JSON list: bundle, then its chunks> <entry export> <work dir> <JSON list of argument lists>
"use strict";

const fs = require("node:fs");
const { codeCacheFile, loadBundle, writeCodeCaches } = require("../bin/load-bundle.cjs");

async function main() {
  const [files, entry, workDir, runs] = process.argv.slice(2);
  const [bundle, ...chunks] = JSON.parse(files);
  // Stale caches would be used by the sample run itself.
  for (const file of [bundle, ...chunks]) fs.rmSync(codeCacheFile(file), { force: true });
  const exports = loadBundle(bundle);
  process.chdir(workDir);
  const [first, ...rest] = JSON.parse(runs);
  await runOnce(exports, entry, first);
  writeCodeCaches({ strict: true, only: [bundle] });
  for (const args of rest) await runOnce(exports, entry, args);
  process.exitCode = 0; // the sample holds invalid files on purpose
  // Every chunk the sample loaded was compiled without a cache: each gets this runtime's now (a chunk
  // the sample never needed gets one from the first start that needs it).
  writeCodeCaches({ strict: true });
}

async function runOnce(exports, entry, args) {
  const handled = await exports[entry](...args);
  if (handled === false) throw new Error(`${entry}(${JSON.stringify(args)}) did not run the command: nothing to learn from`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});
