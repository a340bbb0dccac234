#!/usr/bin/env node
// The `checkpoint` bin: `aop checkpoint` without the rest of aop. A plain `checkpoint validate` (git hooks,
// CI) takes a route that never loads the command-line framework; everything else goes through it.
const argv = process.argv.slice(2);
const { tryFastValidate } = await import("../dist/cli/checkpoint/fast-path.js");
if (!(await tryFastValidate(argv))) {
  const { main } = await import("../dist/cli/checkpoint-bin.js");
  await main(argv);
}
