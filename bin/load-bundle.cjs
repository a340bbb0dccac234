// Loads a one-file CommonJS bundle of dist/ modules (scripts/bundle-bins.mjs) — the CLI's or the hook's
// — started from V8's code cache, so that its code is not parsed and compiled again at every start.
// The bundle is run through vm.Script with bytecode cached beside it, in a file named after the runtime
// that made it (<bundle>.<node version>-<arch>-<flags>.v8cache): the build writes its own runtime's, and
// a start on a runtime that finds none (or one V8 refuses) compiles the bundle and writes that runtime's
// on exit, holding what that run compiled — so a cache made by another Node, architecture or set of
// flags is never read, and is replaced rather than paid for at every start. Where no such cache can be
// written (a package folder its user cannot write) and Node has its own compile cache
// (module.enableCompileCache, Node >= 22.1), the bundle is required with that on instead: Node keys it
// by version, architecture, V8 flags and the file's content, in a folder of its own. Node's holds what
// compiling the file produced, ours what a run used: 7-14 ms a command faster on Node 24 and 26
// (docs/performance.md). V8 checks the cache it is given against its version, its flags and the
// source's length, and ignores one that does not match. docs/startup.md.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
// The loader's own Module class (createRequire is its own). require("node:module") is the same class
// with the public helpers added; loading them costs a start half a millisecond, so only a start that
// turns Node's compile cache on loads them.
const CjsModule = module.constructor;

/** Every bundle compiled through vm.Script in this process, by file: the build writes their caches after a sample run. */
const compiled = new Map();
/** Bundles compiled without a cache V8 took, by file, with the stat of the file that was read: their caches are written on exit. */
const uncached = new Map();
/** A bundle's exports once it ran (a chunk is loaded once, like a module). */
const loaded = new Map();

let nodeCacheOn;

/** Turns Node's own compile cache on, when this Node has one and it is not turned off (NODE_DISABLE_COMPILE_CACHE). */
function nodeCompileCache() {
  if (nodeCacheOn !== undefined) return nodeCacheOn;
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 1)) return (nodeCacheOn = false); // module.enableCompileCache came in 22.1
  const Module = require("node:module");
  if (typeof Module.enableCompileCache !== "function") return (nodeCacheOn = false);
  const { status } = Module.enableCompileCache();
  nodeCacheOn = status !== Module.constants.compileCacheStatus.DISABLED && status !== Module.constants.compileCacheStatus.FAILED;
  return nodeCacheOn;
}

/** Whether this process may write a code cache beside `file` (a package folder its user cannot write: no). */
function writableBeside(file) {
  try {
    fs.accessSync(path.dirname(file), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The same wrapper Node puts around a CommonJS module (the cache is made for exactly this source). */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
}

/**
 * The name stack traces give the code of `file`. V8 keeps the name a code cache was made under, and the
 * build makes its caches in a staging folder it then renames to dist/: it names its files as they will
 * be found there (AOP_BUILD_STAGING, AOP_BUILD_DIST; scripts/bundle-bins.mjs).
 */
function scriptName(file) {
  const staging = process.env.AOP_BUILD_STAGING;
  const dist = process.env.AOP_BUILD_DIST;
  return staging && dist && file.startsWith(staging + path.sep) ? path.join(dist, file.slice(staging.length + 1)) : file;
}

/** Compiles and runs the bundle at `file`; returns its script (for making a cache) and its exports. */
function compileBundle(file, source, cachedData, stat) {
  const script = new vm.Script(wrap(source), { filename: scriptName(file), cachedData });
  compiled.set(file, script);
  if (stat && (cachedData === undefined || script.cachedDataRejected)) noteUncached(file, stat);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, CjsModule.createRequire(file), module, file, path.dirname(file));
  return { script, exports: module.exports };
}

/** A code cache's bytes; one that cannot be read (missing, a folder, unreadable) is no cache. */
function readCodeCache(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The file's text and the stat of the very file read (a build may swap dist/ meanwhile), or undefined. */
function readWithStat(file, encoding) {
  let fd;
  try {
    fd = fs.openSync(file, "r");
  } catch (err) {
    if (err.code === "ENOENT") return undefined;
    throw err;
  }
  try {
    return { text: fs.readFileSync(fd, encoding), stat: fs.fstatSync(fd) };
  } finally {
    fs.closeSync(fd);
  }
}

/** Node's own options that take a value and change nothing V8 compiles (the code run, modules preloaded). */
const NODE_ONLY_OPTIONS = new Set(["-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader", "--experimental-loader", "--input-type", "-C", "--conditions", "--env-file"]);

/**
 * What V8 checks a code cache against besides the source, as a file name part: the Node version, the
 * architecture and the flags the process was started with (command line and NODE_OPTIONS, hashed, but
 * for the Node-only options above). A name, not a check: V8 checks its flags itself.
 */
function runtimeKey() {
  const words = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  let flags = "";
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (NODE_ONLY_OPTIONS.has(word)) i++;
    else if (word !== "" && !NODE_ONLY_OPTIONS.has(word.split("=")[0])) flags += `${word}\0`;
  }
  let hash = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < flags.length; i++) hash = Math.imul(hash ^ flags.charCodeAt(i), 0x01000193);
  return `${process.version}-${process.arch}-${(hash >>> 0).toString(16).padStart(8, "0")}`;
}

let writesOnExit = false;

function noteUncached(file, stat) {
  // NODE_DISABLE_COMPILE_CACHE asks for no compile cache: none is written.
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  if (!writesOnExit) process.once("exit", () => writeCodeCaches());
  writesOnExit = true;
  uncached.set(file, stat);
}

/**
 * Writes the code cache of every bundle compiled without one (of those in `only`, when given), with what
 * V8 compiled so far (a command's run compiles what it needed), each by a rename so a reader never sees
 * half of one. A bundle whose file is no longer the one read (a build swapped dist/ in) gets none. Where
 * the package's folder is read-only nothing is written and every start compiles, as before; `strict`
 * (the build) throws instead.
 */
function writeCodeCaches({ strict = false, only } = {}) {
  for (const [file, read] of uncached) {
    if (only && !only.includes(file)) continue;
    uncached.delete(file);
    const target = codeCacheFile(file);
    const temp = `${target}.${process.pid}.tmp`;
    try {
      const now = fs.statSync(file);
      if (now.ino !== read.ino || now.dev !== read.dev || now.size !== read.size || now.mtimeMs !== read.mtimeMs) continue;
      fs.writeFileSync(temp, compiled.get(file).createCachedData());
      fs.renameSync(temp, target);
    } catch (err) {
      fs.rmSync(temp, { force: true });
      if (strict) throw err;
    }
  }
}

/** The bundle's exports, or null when there is no such file (the checkout is not built). */
function loadBundle(file) {
  if (loaded.has(file)) return loaded.get(file);
  const cache = readCodeCache(codeCacheFile(file));
  let exports;
  if (cache === undefined && process.env.AOP_BUNDLE_LOADER !== "vm" && !writableBeside(file) && nodeCompileCache()) {
    if (!fs.existsSync(file)) return null;
    exports = require(file);
  } else {
    const source = readWithStat(file, "latin1"); // the build makes it ASCII (scripts/bundle-bins.mjs)
    if (source === undefined) return null;
    exports = compileBundle(file, source.text, cache, source.stat).exports;
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

/** The code cache of a bundle for this runtime (Node version, architecture, flags). */
function codeCacheFile(bundleFile) {
  return `${bundleFile}.${runtimeKey()}.v8cache`;
}

module.exports = { loadBundle, loadChunk, hostModules, compileBundle, codeCacheFile, writeCodeCaches };
