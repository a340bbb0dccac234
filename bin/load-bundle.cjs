// Loads a one-file CommonJS bundle of dist/ modules (scripts/bundle-bins.mjs) — the CLI's or the hook's
// — started from V8's code cache, so that its code is not parsed and compiled again at every start.
// Where Node has its own compile cache (module.enableCompileCache, Node ≥ 22.1) the bundle is required
// with it on: Node keys that cache by Node version, architecture, V8 flags and the file's content, in a
// folder of its own (NODE_COMPILE_CACHE, else <tmpdir>/node-compile-cache). On Node 20 the bundle is run
// through vm.Script with the bytecode the build cached beside it (<bundle>.v8cache): V8 checks that
// cache against its version, its flags and the source, and ignores one made by another V8 (the bundle
// then compiles as usual), so a stale or foreign cache costs nothing but its read. docs/startup.md.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const Module = require("node:module");

/** Every bundle compiled through vm.Script in this process, by file: the build writes their caches after a sample run. */
const compiled = new Map();
/** A bundle's exports once it ran (a chunk is loaded once, like a module). */
const loaded = new Map();

/** Node's own compile cache, when this Node has one and it is not turned off (NODE_DISABLE_COMPILE_CACHE). */
function nodeCompileCache() {
  if (typeof Module.enableCompileCache !== "function") return false;
  const { status } = Module.enableCompileCache();
  return status !== Module.constants.compileCacheStatus.DISABLED && status !== Module.constants.compileCacheStatus.FAILED;
}

/** The same wrapper Node puts around a CommonJS module (the cache is made for exactly this source). */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
}

/** Compiles and runs the bundle at `file`; returns its script (for making a cache) and its exports. */
function compileBundle(file, source, cachedData) {
  const script = new vm.Script(wrap(source), { filename: file, cachedData });
  compiled.set(file, script);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, Module.createRequire(file), module, file, path.dirname(file));
  return { script, exports: module.exports };
}

function readOptional(file, encoding) {
  try {
    return fs.readFileSync(file, encoding);
  } catch (err) {
    if (err.code === "ENOENT") return undefined;
    throw err;
  }
}

let useNodeCache;

/** The bundle's exports, or null when there is no such file (the checkout is not built). */
function loadBundle(file) {
  if (loaded.has(file)) return loaded.get(file);
  useNodeCache ??= process.env.AOP_BUNDLE_LOADER !== "vm" && nodeCompileCache();
  let exports;
  if (useNodeCache) {
    if (!fs.existsSync(file)) return null;
    exports = require(file);
  } else {
    const source = readOptional(file, "latin1"); // the build makes it ASCII (scripts/bundle-bins.mjs)
    if (source === undefined) return null;
    exports = compileBundle(file, source, readOptional(codeCacheFile(file))).exports;
  }
  loaded.set(file, exports);
  return exports;
}

/** A chunk of a bundle (scripts/bundle-plugins.mjs): built with it, so never missing in a sound build. */
function loadChunk(dir, name) {
  const exports = loadBundle(path.join(dir, name));
  if (exports === null) throw new Error(`${path.join(dir, name)} is missing: run npm run build`);
  return exports;
}

/** The modules a bundle holds, by path (its chunks use these instead of copies; scripts/bundle-plugins.mjs). */
function hostModules(dir, name) {
  const host = loaded.get(path.join(dir, name));
  if (!host || !host.__aopModules) throw new Error(`${path.join(dir, name)} is not loaded: a chunk runs from its bundle only`);
  return host.__aopModules;
}

function codeCacheFile(bundleFile) {
  return `${bundleFile}.v8cache`;
}

const compiledBundles = () => compiled;

module.exports = { loadBundle, loadChunk, hostModules, compileBundle, codeCacheFile, compiledBundles };
