// esbuild plugins of the one-file CommonJS bundles (scripts/bundle-bins.mjs, docs/startup.md).
import fs from "node:fs";
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
 * module per built-in exports the built-in itself as its default, and the names imported from it by
 * name (`importedBuiltinNames`): a start no longer defines a forwarding getter for each of node:fs's
 * hundred names in every chunk. Where a built-in is needed whole — a namespace import, an import(), a
 * require() (the vendored packages), an import from a package under node_modules (not scanned), a name
 * that is a getter (fs.promises) or that this Node lacks — it exports every name through forwarding
 * getters, as before (fs.promises still loads only when used). A name the scan missed is esbuild's
 * "No matching export" error, never a silent undefined.
 */
export function builtinModules(dist) {
  const named = importedBuiltinNames(dist);
  return {
    name: "builtin-modules",
    setup(b) {
      b.onResolve({ filter: /^node:/ }, (args) => {
        if (args.namespace === "builtin" || args.namespace === "builtin-named") return { path: args.path, external: true };
        const byName = args.kind === "import-statement" && !inPackage(args) && named.has(args.path);
        return { path: args.path, namespace: byName ? "builtin-named" : "builtin", sideEffects: false };
      });
      b.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({ contents: `export default require(${JSON.stringify(args.path)});\nexport * from ${JSON.stringify(args.path)};\n`, loader: "js" }));
      b.onLoad({ filter: /.*/, namespace: "builtin-named" }, (args) => ({
        contents: [`const m = require(${JSON.stringify(args.path)});`, "export default m;", ...[...named.get(args.path)].map((n) => `export const ${n} = m.${n};`)].join("\n") + "\n",
        loader: "js",
      }));
    },
  };
}

const FROM_BUILTIN = /\bfrom\s*["'](node:[^"']+)["']/g;
const NAMED_IMPORT = /(?:\bimport\s*(?:[\w$]+\s*,\s*)?|\bexport\s*)\{([^}]*)\}\s*from\s*["'](node:[^"']+)["']/g;
const WHOLE_IMPORT = /(?:\bimport\s*(?:[\w$]+\s*,\s*)?\*\s*as\s+[\w$]+|\bexport\s*\*(?:\s*as\s+[\w$]+)?)\s*from\s*["'](node:[^"']+)["']/g;
const scanned = new Map();

/**
 * For each built-in the modules under `dist` (ours and the vendored packages) import, the names they
 * import it by (none for default imports alone); left out are the built-ins that some module imports
 * whole or by a name that is a getter or that this Node lacks. One scan per folder built.
 */
function importedBuiltinNames(dist) {
  if (scanned.has(dist)) return scanned.get(dist);
  const names = new Map();
  const whole = new Set();
  for (const file of fs.readdirSync(dist, { recursive: true })) {
    if (!file.endsWith(".js") || file.includes("node_modules")) continue;
    const source = fs.readFileSync(path.join(dist, file), "utf8");
    for (const [, builtin] of source.matchAll(FROM_BUILTIN)) if (!names.has(builtin)) names.set(builtin, new Set());
    for (const [, list, builtin] of source.matchAll(NAMED_IMPORT)) {
      for (const item of list.split(",")) {
        const name = item.trim().split(/\s+as\s+/)[0].trim();
        if (name !== "" && name !== "default") names.get(builtin).add(name);
      }
    }
    for (const [, builtin] of source.matchAll(WHOLE_IMPORT)) whole.add(builtin);
  }
  const plainName = (module, n) => /^[A-Za-z_$][\w$]*$/.test(n) && n in module && Object.getOwnPropertyDescriptor(module, n)?.get === undefined;
  const result = new Map();
  for (const [builtin, wanted] of names) {
    const module = process.getBuiltinModule(builtin);
    if (!whole.has(builtin) && module !== undefined && [...wanted].every((n) => plainName(module, n))) result.set(builtin, wanted);
  }
  scanned.set(dist, result);
  return result;
}

/**
 * Our modules bundled (as side-effect free), each with its own import.meta.url: the URL of its file in
 * dist/, so that the files it finds relative to itself (catalog.json, the policy defaults, the report's
 * assets, the worker's bundle) are found from the bundle too (__aopModuleUrl: the bundle's banner).
 * Packages are left to Node, unless `inlinePackages` (the CLI bundle holds them, so that its code cache
 * covers them).
 */
export function modulesPlugin({ dist, out, inlinePackages }) {
  const distFromOut = path.relative(path.dirname(out), dist);
  return {
    name: "modules",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => (inPackage(args) ? undefined : sideEffectFree(args)));
      b.onResolve({ filter: /^[^./]/ }, (args) => (inlinePackages || args.path.startsWith("node:") || inPackage(args) ? undefined : { path: args.path, external: true }));
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(dist + path.sep) || args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await fs.promises.readFile(args.path, "utf8");
        const file = JSON.stringify(path.join(distFromOut, path.relative(dist, args.path)));
        return { contents: source.replaceAll("import.meta.url", `__aopModuleUrl(${file})`), loader: "js" };
      });
    },
  };
}

/**
 * A bundle's chunks as {name, modules}: a string names one module (a package name, or a path under the
 * dist folder), an object several that are loaded together, so that they share one copy of the
 * modules they both import.
 */
export function chunkSpecs(chunks) {
  const specs = chunks.map((c) => (typeof c === "string" ? { name: moduleName(c), modules: [c] } : c));
  const names = specs.map((s) => s.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new Error(`two chunks are named ${twice}`);
  return specs;
}

/** A module's chunk name: its file's name, or its folder's for an index.js (a domain's surface). */
function moduleName(module) {
  if (!module.endsWith(".js")) return module.replace(/[^A-Za-z0-9._-]/g, "_");
  const base = path.basename(module, ".js");
  return base === "index" ? path.basename(path.dirname(module)) : base;
}

/** The file of a chunk beside the bundle `out`. */
export function chunkFile(out, spec) {
  return path.join(path.dirname(out), `${spec.name}.chunk.cjs`);
}

/** The source of a chunk's bundle: its one module, or each of its modules under its index. */
export function chunkEntry(dist, spec) {
  const resolve = (m) => (m.includes("/") ? path.join(dist, m) : fileURLToPath(import.meta.resolve(m)));
  if (spec.modules.length === 1) return { file: resolve(spec.modules[0]) };
  return { contents: spec.modules.map((m, i) => `export * as m${i} from ${JSON.stringify(resolve(m))};`).join("\n"), resolveDir: dist };
}

/**
 * Splits rarely needed code off a bundle: an import() of a module of one of its `chunks` loads that
 * chunk's own bundle, with its own code cache, through bin/load-bundle.cjs — esbuild splits ES modules
 * only, and a bundle run through vm.Script can load only CommonJS. A chunk holds its own copies of the
 * modules it shares with the bundle: fine for our modules, which keep no state another module relies
 * on (docs/startup.md).
 */
export function chunksPlugin({ dist, out, chunks }) {
  const targets = new Map();
  for (const spec of chunkSpecs(chunks)) spec.modules.forEach((m, index) => targets.set(m.includes("/") ? path.join(dist, m) : m, { spec, module: m, index }));
  // bin/ beside the dist folder (the one being built is a sibling of dist/, swapped in by renaming).
  const loader = path.relative(path.dirname(out), path.join(dist, "..", "bin", "load-bundle.cjs"));
  return {
    name: "chunks",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === "chunk" || targets.has(args.importer)) return { path: args.path, external: true };
        if (args.kind !== "dynamic-import") return undefined;
        const target = targets.get(args.path.startsWith(".") ? path.resolve(args.resolveDir, args.path) : args.path);
        return target === undefined ? undefined : { path: target.module, namespace: "chunk", pluginData: target };
      });
      // A chunk's module reached without a resolve step (esbuild expands an import() of a template
      // literal, `validators/${name}.js`, into every file it matches) is its chunk too.
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const target = targets.get(args.path);
        return target === undefined ? undefined : chunkModule(target);
      });
      b.onLoad({ filter: /.*/, namespace: "chunk" }, (args) => chunkModule(args.pluginData));
    },
  };
  /** The module that stands for a chunk's module: it loads the chunk (synchronously) and re-exports it. */
  async function chunkModule({ spec, module, index }) {
    const load = `require(${JSON.stringify(`./${loader}`)}).loadChunk(__dirname, ${JSON.stringify(path.basename(chunkFile(out, spec)))})${spec.modules.length > 1 ? `.m${index}` : ""}`;
    // A package is CommonJS to its importers already; one of our ES modules keeps its named exports
    // (as an ES module importing CommonJS, the import would see module.exports as its default).
    if (!module.includes("/")) return { contents: `module.exports = ${load};\n`, loader: "js" };
    const names = Object.keys(await import(pathToFileURL(path.join(dist, module)).href)).filter((n) => n !== "default");
    return { contents: `const chunk = ${load};\nexport default chunk.default;\nexport const { ${names.join(", ")} } = chunk;\n`, loader: "js" };
  }
}

/**
 * A bundle's chunks use the bundle's own instances of the modules it holds (`shared`, absolute paths):
 * a chunk's import of one is served by the host's registry (`__aopModules`, bin/load-bundle.cjs)
 * instead of a copy, so state kept by a module — the workspace roots of the containment checks, the
 * effect journal of the call in progress, the in-process lock queues — is one for the process.
 */
export function hostModulesPlugin({ dist, out, hostOut, shared }) {
  const loader = path.relative(path.dirname(out), path.join(dist, "..", "bin", "load-bundle.cjs"));
  const host = path.relative(path.dirname(out), hostOut);
  return {
    name: "host-modules",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.namespace === "host" || inPackage(args)) return undefined;
        const target = path.resolve(args.resolveDir, args.path);
        return shared.has(target) ? { path: target, namespace: "host" } : undefined;
      });
      b.onResolve({ filter: /.*/ }, (args) => (args.namespace === "host" ? { path: args.path, external: true } : undefined));
      b.onLoad({ filter: /.*/, namespace: "host" }, async (args) => {
        const exported = Object.keys(await import(pathToFileURL(args.path).href));
        const names = exported.filter((n) => n !== "default");
        const rel = path.relative(dist, args.path);
        const lines = [`const m = require(${JSON.stringify(`./${loader}`)}).hostModules(__dirname, ${JSON.stringify(host)})[${JSON.stringify(rel)}];`];
        if (exported.includes("default")) lines.push("export default m.default;");
        if (names.length > 0) lines.push(`export const { ${names.join(", ")} } = m;`);
        return { contents: lines.join("\n") + "\n", loader: "js" };
      });
    },
  };
}

/** The source of a host bundle: its entry's exports, and every module it holds by path (`__aopModules`). */
export function hostEntry(dist, entry, shared) {
  const modules = [...shared].sort();
  return {
    contents: [`export * from ${JSON.stringify(entry)};`, ...modules.map((m, i) => `import * as m${i} from ${JSON.stringify(m)};`), `export const __aopModules = { ${modules.map((m, i) => `${JSON.stringify(path.relative(dist, m))}: m${i}`).join(", ")} };`].join("\n"),
    resolveDir: dist,
  };
}

/** The modules of ours (under `dist`) a build's metafile says its output holds (its inputs are relative to `root`). */
export function ourModules(root, dist, metafile) {
  const prefix = dist + path.sep;
  return new Set(Object.keys(metafile.inputs).map((i) => path.resolve(root, i)).filter((f) => f.startsWith(prefix) && !f.includes(`${path.sep}node_modules${path.sep}`)));
}

// The modules whose state is the process's, which a host shares with its chunks: the class every
// layer throws and catches (AopError, compared with instanceof), the workspace roots of the containment
// checks, the count of crash points passed (a crash test kills at the n-th in the process), the
// effect journal of the call in progress, the in-process lock queues, the validators a
// route provides, and commander (the CLI's program is built by one chunk and run by the bundle, which
// compares commander's errors with instanceof). Any other module of ours a chunk holds is its own
// copy: they keep only caches, keyed by what they cache, or state that is right per copy — atomic
// writes' temp counter (names are created exclusively, a clash retries), lock tokens (random bits
// lead), stdout's closed-pipe guard (a second handler ends the process the same way) and the timeline
// writers closed at exit (each copy hooks exit for its own writers). A module that comes to keep
// state a chunk must see as the process's belongs on this list.
export const SHARED_MODULES = ["core/errors.js", "store/containment.js", "store/crash-points.js", "store/effect-journal.js", "store/lock-queue.js", "catalog/load-validator.js", "adapters/cli/commander-vendor.js"];

/** Of `modules`, those on SHARED_MODULES. */
export function sharedModules(dist, modules) {
  const shared = new Set(SHARED_MODULES.map((m) => path.join(dist, m)));
  return new Set([...modules].filter((m) => shared.has(m)));
}
