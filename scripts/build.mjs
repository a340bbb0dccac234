// Build: generate validators and defaults, compile TypeScript, copy the generated files into dist/,
// bundle the MCP SDK entry points.
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generate } from "./generate.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");

generate();
fs.rmSync(dist, { recursive: true, force: true });
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json")], { stdio: "inherit", cwd: root });
fs.cpSync(path.join(root, "src", "generated"), path.join(dist, "generated"), { recursive: true });

// The MCP SDK (with zod) is hundreds of small modules; one bundled file each for the server and
// client halves loads several times faster, which is most of `aop mcp`'s start-up.
const { build } = await import("esbuild");
for (const name of ["server-sdk", "client-sdk"]) {
  await build({
    entryPoints: [path.join(root, "src", "mcp", `${name}.ts`)],
    outfile: path.join(dist, "mcp", `${name}.js`),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    logLevel: "warning",
    banner: { js: 'import { createRequire as __aopCreateRequire } from "node:module"; const require = __aopCreateRequire(import.meta.url);' },
  });
}
