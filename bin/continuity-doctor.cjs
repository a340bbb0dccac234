#!/usr/bin/env node
// Entry point of `continuity-doctor` (= `aop continuity doctor`): the CLI bundle's continuity doctor program (docs/startup.md).
"use strict";

require("./dist-bundle.cjs").run("cli/cli.bundle.cjs", "continuityDoctorMain", process.argv.slice(2));
