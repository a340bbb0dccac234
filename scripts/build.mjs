// Build: generate validators and defaults, compile TypeScript, copy the generated files into dist/,
// bundle the MCP SDK entry points and the start-up-critical bins.
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { generate } from "./generate.mjs";
import { bundleBins, bundleVendored } from "./bundle-bins.mjs";
import { bundleReportPage } from "./bundle-report-page.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");

generate();
// Tells what one build wrote from another's (the hook's policy snapshot, src/config/policy-snapshot.ts).
fs.writeFileSync(path.join(root, "src", "catalog", "generated", "build.json"), JSON.stringify({ id: randomUUID() }) + "\n");
fs.rmSync(dist, { recursive: true, force: true });
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json")], { stdio: "inherit", cwd: root });
fs.cpSync(path.join(root, "src", "catalog", "generated"), path.join(dist, "catalog", "generated"), { recursive: true });

await bundleVendored();
await bundleBins();
await bundleReportPage();
