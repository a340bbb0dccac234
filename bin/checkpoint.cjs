#!/usr/bin/env node
// Entry point of `checkpoint` (= `aop checkpoint`): the CLI bundle's checkpoint program (docs/startup.md).
"use strict";

require("./dist-bundle.cjs").run("cli/cli.bundle.cjs", "checkpointMain", process.argv.slice(2));
