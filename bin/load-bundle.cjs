// Loads a one-file CommonJS bundle of dist/ modules (scripts/bundle-bins.mjs) as Node's require would,
// but through vm.Script so that V8 can start from the bytecode the build cached beside it
// (<bundle>.v8cache). Parsing and compiling the bundle's code is a tenth of a plain
// `checkpoint validate`; the cache skips it. V8 ignores a cache made by another V8 version or with
// other flags (it then compiles as usual), so a stale or foreign cache costs nothing but its read.
// What it saves, and how that was measured: docs/startup.md.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { createRequire } = require("node:module");

/** Every bundle compiled in this process, by file: the build writes their caches after a sample run. */
const compiled = new Map();
/** A bundle's exports once it ran (a chunk is loaded once, like a module). */
const loaded = new Map();

/** The same wrapper Node puts around a CommonJS module (the cache is made for exactly this source). */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
}

/** Compiles and runs the bundle at `file`; returns its script (for making a cache) and its exports. */
function compileBundle(file, source, cachedData) {
  const script = new vm.Script(wrap(source), { filename: file, cachedData });
  compiled.set(file, script);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
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

/** The bundle's exports, or null when the build made no bundle (the caller then loads the modular build). */
function loadBundle(file) {
  if (loaded.has(file)) return loaded.get(file);
  const source = readOptional(file, "utf8");
  if (source === undefined) return null;
  const { exports } = compileBundle(file, source, readOptional(codeCacheFile(file)));
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
