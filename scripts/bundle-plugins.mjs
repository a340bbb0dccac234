// esbuild plugins of the one-file CommonJS bundles (scripts/bundle-bins.mjs, docs/startup.md).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Our modules have no import-time side effects: telling esbuild so keeps what a bundle does not use
 * (the rest of a domain's index.ts surface) out of it.
 */
export function sideEffectFree(args) {
  return { path: path.resolve(args.resolveDir, args.path), sideEffects: false };
}

const inPackage = (args) => args.importer.includes(`${path.sep}node_modules${path.sep}`);

/**
 * Node's built-in modules, each required once by the bundle. esbuild's CommonJS output otherwise wraps
 * a default import (`import fs from "node:fs"`) in a copy of the module's every export, made again in
 * each module that imports it: dozens of copies of node:fs in one start (docs/performance.md). Here one
 * module per built-in exports the built-in itself as its default, and its names through forwarding
 * getters (so fs.promises, say, still loads only when used).
 */
export const builtinModules = {
  name: "builtin-modules",
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.namespace === "builtin" ? { path: args.path, external: true } : { path: args.path, namespace: "builtin", sideEffects: false }));
    b.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({ contents: `export default require(${JSON.stringify(args.path)});\nexport * from ${JSON.stringify(args.path)};\n`, loader: "js" }));
  },
};

/**
 * Our modules bundled (as side-effect free), packages left to Node — except those in `inline` (and what
 * they import), which the bundle holds so that its code cache covers them — and `lazy` modules, which
 * stay import()s of the modular build.
 */
export function modulesPlugin({ lazy = [], inline = [] }) {
  return {
    name: "modules",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => (lazy.includes(args.path) ? { path: args.path, external: true } : undefined));
      b.onResolve({ filter: /^\.\.?\// }, (args) => (inPackage(args) ? undefined : sideEffectFree(args)));
      b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("node:") || inline.includes(args.path) || inPackage(args) ? undefined : { path: args.path, external: true }));
    },
  };
}

/**
 * A bundle's chunks as {name, modules}: a string names one module (a package name, or a path under the
 * repository root), an object several that are loaded together, so that they share one copy of the
 * modules they both import.
 */
export function chunkSpecs(chunks) {
  return chunks.map((c) => (typeof c === "string" ? { name: c.endsWith(".js") ? path.basename(c, ".js") : c.replace(/[^A-Za-z0-9._-]/g, "_"), modules: [c] } : c));
}

/** The file of a chunk beside the bundle `out`. */
export function chunkFile(out, spec) {
  return path.join(path.dirname(out), `${spec.name}.chunk.cjs`);
}

/** The source of a chunk's bundle: its one module, or each of its modules under its index. */
export function chunkEntry(root, spec) {
  const resolve = (m) => (m.includes("/") ? path.join(root, m) : fileURLToPath(import.meta.resolve(m)));
  if (spec.modules.length === 1) return { file: resolve(spec.modules[0]) };
  return { contents: spec.modules.map((m, i) => `export * as m${i} from ${JSON.stringify(resolve(m))};`).join("\n"), resolveDir: root };
}

/**
 * Splits rarely needed code off a bundle: an import() of a module of one of its `chunks` loads that
 * chunk's own bundle, with its own code cache, through bin/load-bundle.cjs — esbuild splits ES modules
 * only, and a bundle run through vm.Script can load only CommonJS. A chunk holds its own copies of the
 * modules it shares with the bundle: fine for our modules, which keep no state another module relies
 * on (docs/startup.md).
 */
export function chunksPlugin({ root, out, chunks }) {
  const targets = new Map();
  for (const spec of chunkSpecs(chunks)) spec.modules.forEach((m, index) => targets.set(m.includes("/") ? path.join(root, m) : m, { spec, module: m, index }));
  const loader = path.relative(path.dirname(path.join(root, out)), path.join(root, "bin", "load-bundle.cjs"));
  return {
    name: "chunks",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === "chunk") return { path: args.path, external: true };
        if (args.kind !== "dynamic-import") return undefined;
        const target = targets.get(args.path.startsWith(".") ? path.resolve(args.resolveDir, args.path) : args.path);
        return target === undefined ? undefined : { path: target.module, namespace: "chunk", pluginData: target };
      });
      b.onLoad({ filter: /.*/, namespace: "chunk" }, async (args) => {
        const { spec, module, index } = args.pluginData;
        const load = `require(${JSON.stringify(`./${loader}`)}).loadChunk(__dirname, ${JSON.stringify(path.basename(chunkFile(out, spec)))})${spec.modules.length > 1 ? `.m${index}` : ""}`;
        // A package is CommonJS to its importers already; one of our ES modules keeps its named exports
        // (as an ES module importing CommonJS, the import would see module.exports as its default).
        if (!module.includes("/")) return { contents: `module.exports = ${load};\n`, loader: "js" };
        const names = Object.keys(await import(pathToFileURL(path.join(root, module)).href)).filter((n) => n !== "default");
        return { contents: `const chunk = ${load};\nexport default chunk.default;\nexport const { ${names.join(", ")} } = chunk;\n`, loader: "js" };
      });
    },
  };
}
