// Bundles the entry module of a start-up-critical bin into one file. Loading ~35 small modules costs
// more than the continuity doctor's whole work, so its bin loads one file built from the same compiled
// modules (dist/): one implementation, bundled. Packages stay external, and so do the modules a bundle
// lists as `lazy`: they load only on the paths that need them (commander for help and usage errors).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const BUNDLES = [
  {
    entry: "dist/cli/continuity-doctor-bin.js",
    // Same folder as the entry, so `createRequire(import.meta.url)("../…")` paths still resolve.
    out: "dist/cli/continuity-doctor-bin.bundle.js",
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
      format: "esm",
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

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleBins();
