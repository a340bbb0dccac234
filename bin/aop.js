#!/usr/bin/env node
// Entry point. `--version` is answered before any module loads: it is the cheapest possible call.
// `aop checkpoint validate` takes the same commander-free route as the `checkpoint` bin (git hooks, CI),
// through the same one-file bundle when the build made it; so does a plain `aop replay --run-id …`
// (its own bundle); and `aop hook claude` goes straight to its handler.
// node:fs is not imported here: an ES module import of it evaluates every export (its stream classes
// too), which costs a short command ~2 ms; the routes load what they need themselves.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const pkg = JSON.parse(process.getBuiltinModule("node:fs").readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // The Claude Code hook runs after every tool call of the agent: straight to its handler.
  const hook = argv.length === 2 && argv[0] === "hook" && argv[1] === "claude";
  if (hook) await (await import("../dist/hook/hook-main.js")).hookMain();
  const fast =
    !hook &&
    ((argv[0] === "checkpoint" && argv.includes("validate") && (await (await checkpointRoute()).tryFastValidate(argv.slice(1)))) ||
      (argv.includes("replay") && (await (await replayRoute()).tryFastReplay(argv))));
  if (!hook && !fast) {
    // A reader that stops early (`aop … | head`) is not an error.
    process.stdout.on("error", (err) => {
      if (err.code !== "EPIPE") throw err;
      process.exit(process.exitCode ?? 0);
    });
    const { main } = await import("../dist/adapters/cli/main.js");
    await main(argv);
  }
}

/** The replay page route: its bundle, else the modular build. */
async function replayRoute() {
  const require = createRequire(import.meta.url);
  const bundle = require("./load-bundle.cjs").loadBundle(fileURLToPath(new URL("../dist/replay-cli/fast-path.bundle.cjs", import.meta.url)));
  return bundle ?? import("../dist/adapters/cli/replay-fast-path.js");
}

/** The checkpoint bin's fast route: its bundle (bin/load-bundle.cjs), else the modular build. */
async function checkpointRoute() {
  const require = createRequire(import.meta.url);
  const bundle = require("./load-bundle.cjs").loadBundle(fileURLToPath(new URL("../dist/adapters/cli/checkpoint/fast-path.bundle.cjs", import.meta.url)));
  return bundle ?? import("../dist/adapters/cli/checkpoint/fast-path.js");
}
