// Build step, run in a fresh `node` (the flags V8 checks must be those of the bins): loads a bundle
// the way bin/load-bundle.cjs does, runs its entry on sample input so that V8 compiles the functions a
// real run needs, then writes V8's code cache beside the bundle.
// Usage: node scripts/make-code-cache.cjs <bundle> <entry export> <work dir> <JSON list of argv lists>
"use strict";

const fs = require("node:fs");
const { compileBundle, codeCacheFile } = require("../bin/load-bundle.cjs");

async function main() {
  const [bundle, entry, workDir, runs] = process.argv.slice(2);
  const { script, exports } = compileBundle(bundle, fs.readFileSync(bundle, "utf8"));
  process.chdir(workDir);
  for (const argv of JSON.parse(runs)) {
    const handled = await exports[entry](argv);
    if (handled === false) throw new Error(`${entry}(${JSON.stringify(argv)}) did not run the command: nothing to learn from`);
  }
  process.exitCode = 0; // the sample holds invalid files on purpose
  fs.writeFileSync(codeCacheFile(bundle), script.createCachedData());
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exitCode = 1;
});
