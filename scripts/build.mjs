// Build: generate validators and defaults, compile TypeScript, copy the generated files, bundle the MCP
// SDK entry points, the CLI and the hook — all into a fresh folder, swapped in as dist/ at the end, so
// that commands run during a build use the previous build (scripts/build-swap.mjs, docs/startup.md).
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { generate } from "./generate.mjs";
import { bundleBins, bundleVendored } from "./bundle-bins.mjs";
import { bundleReportPage } from "./bundle-report-page.mjs";
import { stagingFolder, swapIn } from "./build-swap.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

generate();
// Tells what one build wrote from another's (the configuration snapshots, src/config/config-snapshot.ts).
// A module, not a file read at run time: in a bundle it is a constant.
const generatedDir = path.join(root, "src", "catalog", "generated");
fs.writeFileSync(path.join(generatedDir, "build-id.js"), `export const BUILD_ID = ${JSON.stringify(randomUUID())};\n`);
fs.writeFileSync(path.join(generatedDir, "build-id.d.ts"), "export declare const BUILD_ID: string;\n");
const next = stagingFolder(root);
try {
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  // Emit only: the types are checked once, by `npm run typecheck` (part of `npm run checks` and `npm test`).
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json"), "--outDir", next, "--noCheck"], { stdio: "inherit", cwd: root });
  fs.cpSync(path.join(root, "src", "catalog", "generated"), path.join(next, "catalog", "generated"), { recursive: true });
  await bundleVendored(next);
  await bundleBins(next);
  await bundleReportPage(path.join(next, "domains", "report", "assets"));
  swapIn(next, path.join(root, "dist"));
} finally {
  fs.rmSync(next, { recursive: true, force: true });
}
