#!/usr/bin/env node
// Entry point. `--version` is answered before any module loads: it is the cheapest possible call.
// `aop checkpoint validate` takes the same commander-free route as the `checkpoint` bin (git hooks, CI),
// and `aop hook claude` goes straight to its handler.
import { readFileSync } from "node:fs";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // A reader that stops early (`aop … | head`) is not an error.
  process.stdout.on("error", (err) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
  // The Claude Code hook runs after every tool call of the agent: straight to its handler.
  const hook = argv.length === 2 && argv[0] === "hook" && argv[1] === "claude";
  if (hook) await (await import("../dist/hooks/hook-main.js")).hookMain();
  const fast = !hook && argv[0] === "checkpoint" && (await (await import("../dist/cli/checkpoint/fast-path.js")).tryFastValidate(argv.slice(1)));
  if (!hook && !fast) {
    const { main } = await import("../dist/cli/main.js");
    await main(argv);
  }
}
