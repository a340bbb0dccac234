#!/usr/bin/env node
// The `checkpoint` bin: `aop checkpoint` without the rest of aop. A plain `checkpoint validate` (git hooks,
// CI) takes a route that never loads the command-line framework; everything else goes through it.
const argv = process.argv.slice(2);
// A reader that stops early (`checkpoint status | head`) is not an error.
process.stdout.on("error", (err) => {
  if (err.code !== "EPIPE") throw err;
  process.exit(process.exitCode ?? 0);
});
const { tryFastValidate } = await import("../dist/cli/checkpoint/fast-path.js");
if (!(await tryFastValidate(argv))) {
  const { main } = await import("../dist/cli/checkpoint-bin.js");
  await main(argv);
}
