#!/usr/bin/env node
// Entry point. `--version` is answered before any module loads: it is the cheapest possible call.
import { readFileSync } from "node:fs";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${pkg.version}\n`);
} else {
  const { main } = await import("../dist/cli/main.js");
  await main(argv);
}
