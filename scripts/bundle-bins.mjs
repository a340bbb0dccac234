// Bundles start-up-critical code with esbuild at build time. Bins: the entry module of a bin into one CommonJS file. Loading ~35 small ES
// modules costs more than the continuity doctor's whole work, and Node starts a CommonJS program
// ~15 ms sooner than an ES module one; so its bin is a .cjs entry loading one file built from the
// same compiled modules (dist/): one implementation, bundled. Packages stay external, and so do the
// modules a bundle lists as `lazy`: they load only on the paths that need them (commander for help
// and usage errors), through import().
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const BUNDLES = [
  {
    entry: "dist/cli/continuity-doctor-bin.js",
    // Same folder as the entry, so `createRequire(import.meta.url)("../…")` paths still resolve.
    out: "dist/cli/continuity-doctor-bin.bundle.cjs",
    lazy: ["./continuity-doctor-program.js"],
  },
];

export async function bundleBins() {
  for (const { entry, out, lazy } of BUNDLES) {
    await build({
      entryPoints: [path.join(root, entry)],
      outfile: path.join(root, out),
      bundle: true,
      platform: "node",
      format: "cjs",
      // The modules locate files with createRequire(import.meta.url); give them this file's URL.
      define: { "import.meta.url": "__bundleUrl" },
      banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
      target: "node20",
      packages: "external",
      logLevel: "warning",
      legalComments: "none",
      plugins: [
        {
          name: "lazy-modules",
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) => (lazy.includes(args.path) ? { path: args.path, external: true } : undefined));
          },
        },
      ],
    });
  }
}

/**
 * The MCP SDK (with zod) is hundreds of small modules; one bundled file each for the server and
 * client halves loads several times faster, which is most of `aop mcp`'s start-up.
 */
export async function bundleVendored() {
  // Same for commander, which every `aop` start loads.
  for (const entry of ["mcp/server-sdk", "mcp/client-sdk", "cli/commander-vendor"]) {
    await build({
      entryPoints: [path.join(root, "src", `${entry}.ts`)],
      outfile: path.join(root, "dist", `${entry}.js`),
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
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleVendored();
  await bundleBins();
}
