// Every `aop` command (and the `checkpoint` and `continuity-doctor` bins) runs from one CommonJS bundle
// started from V8's code cache (scripts/bundle-bins.mjs, bin/load-bundle.cjs, docs/startup.md): the
// bytecode cached beside the bundle (by the build, or by a first start on another runtime), else, where
// none can be written there, Node's own compile cache where Node has one. A missing, corrupt or foreign
// cache costs time, never output; a checkout without a build says so.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import Module from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { readOnlyMount } from "../../helpers/full-disk.js";
import { packageCopy } from "../../helpers/package-copy.js";
import { CHECKPOINT_BIN, CONTINUITY_DOCTOR_BIN, REPO_ROOT } from "../../helpers/paths.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const BUNDLE = path.join("dist", "cli", "cli.bundle.cjs");
const hasCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === "function";

/** Runs `code` in a fresh node started the way the bins are (no flags but -e, which names no V8 flag). */
function node(code: string, env: Record<string, string> = {}): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "", ...env } });
  return { stdout: r.stdout, stderr: r.stderr };
}

/** The code cache file the bins started by this Node read and write for `bundle` (bin/load-bundle.cjs names it). */
function codeCacheOf(pkg: string, bundle = path.join(pkg, BUNDLE)): string {
  return node(`process.stdout.write(require(${JSON.stringify(path.join(pkg, "bin", "load-bundle.cjs"))}).codeCacheFile(${JSON.stringify(bundle)}))`).stdout;
}

/** Whether V8 takes the cache file beside the bundle for it, as the loader compiles it on Node 20. */
function cacheAccepted(pkg: string): string {
  const probe = `const { compileBundle, codeCacheFile } = require(${JSON.stringify(path.join(pkg, "bin", "load-bundle.cjs"))});
    const fs = require("node:fs");
    const file = ${JSON.stringify(path.join(pkg, BUNDLE))};
    const { script } = compileBundle(file, fs.readFileSync(file, "latin1"), fs.readFileSync(codeCacheFile(file)));
    process.stdout.write(String(!script.cachedDataRejected));`;
  const result = node(probe);
  expect(result.stderr).toBe("");
  return result.stdout;
}

/** A workspace with a feature and a checkpoint, made through the CLI. */
function workspace(): string {
  const root = tempWorkspace();
  runCli(["feature", "init", "feat_a", "--title", "A"], { cwd: root });
  runCli(["checkpoint", "update", "architect", "--status=in_progress", "--step=one"], { cwd: root });
  return root;
}

const COMMANDS = [["--help"], ["feature", "list", "--json"], ["checkpoint", "validate"], ["replay", "--list"], ["bogus"]];

describe("the CLI bundle", () => {
  it("is ASCII (read as Latin-1) and calls no import() (code run through vm.Script has no module loader behind it)", () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, BUNDLE), "latin1");
    expect(/[^\t\n\r -~]/.test(source)).toBe(false);
    expect(source).not.toMatch(/\bimport\(/);
  });

  it("a code cache made the way the build makes it is one V8 accepts for the bundle as bin/load-bundle.cjs compiles it on Node 20", () => {
    // Made here with this Node (the build's own was made by the Node that built, which may be another).
    const pkg = packageCopy(() => {});
    const made = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts", "make-code-cache.cjs"), JSON.stringify([path.join(pkg, BUNDLE)]), "main", tempWorkspace(), JSON.stringify([[["--help"]]])], {
      encoding: "utf8",
      env: { ...process.env, NODE_OPTIONS: "", AOP_BUNDLE_LOADER: "vm" },
    });
    expect(made.status, made.stderr).toBe(0);
    expect(cacheAccepted(pkg)).toBe("true");
  });

  it("the build caches in the bundle what the sample's first run compiled, and in each chunk what every run did", () => {
    // The package's own copy of the script, so that its chunks find the bundle's loader (bin/load-bundle.cjs).
    const pkg = packageCopy((p) => {
      fs.mkdirSync(path.join(p, "scripts"));
      fs.copyFileSync(path.join(REPO_ROOT, "scripts", "make-code-cache.cjs"), path.join(p, "scripts", "make-code-cache.cjs"));
    });
    const chunk = (name: string) => path.join(pkg, "dist", "cli", name);
    const files = [path.join(pkg, BUNDLE), chunk("checkpoint.chunk.cjs"), chunk("doctor.chunk.cjs")];
    const root = workspace();
    const caches = files.map((file) => codeCacheOf(pkg, file));
    const make = (runs: string[][]) => {
      const made = spawnSync(process.execPath, [path.join(pkg, "scripts", "make-code-cache.cjs"), JSON.stringify(files), "main", root, JSON.stringify(runs.map((argv) => [argv]))], {
        encoding: "utf8",
        env: { ...process.env, NODE_OPTIONS: "", AOP_BUNDLE_LOADER: "vm" },
      });
      expect(made.status, made.stderr).toBe(0);
      return caches.map((cache) => (fs.existsSync(cache) ? fs.statSync(cache).size : 0));
    };
    const [firstOnly] = make([["checkpoint", "next"]]);
    // Help and the doctor compile much of the bundle that `checkpoint next` does not run (some 50 KB of
    // cache): none of it is in the bundle's cache. A cache's size varies by a few bytes between runs.
    const [bundle, checkpointChunk, doctorChunk] = make([["checkpoint", "next"], ["--help"], ["doctor"]]);
    expect(Math.abs(bundle! - firstOnly!)).toBeLessThan(1024);
    expect(checkpointChunk).toBeGreaterThan(0);
    expect(doctorChunk).toBeGreaterThan(0); // loaded by the last run only
    expect(cacheAccepted(pkg)).toBe("true");
  });

  it("the cache's file is named after the runtime: the Node version, the architecture and the V8 flags", () => {
    const file = path.join(REPO_ROOT, BUNDLE);
    const name = codeCacheOf(REPO_ROOT);
    expect(name).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.${process.version.replace(/\./g, "\\.")}-${process.arch}-[0-9a-f]{8}\\.v8cache$`));
    const loader = JSON.stringify(path.join(REPO_ROOT, "bin", "load-bundle.cjs"));
    const withFlags = spawnSync(process.execPath, ["--max-old-space-size=300", "-e", `process.stdout.write(require(${loader}).codeCacheFile(${JSON.stringify(file)}))`], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } }).stdout;
    expect(withFlags).not.toBe(name);
    expect(node(`process.stdout.write(require(${loader}).codeCacheFile(${JSON.stringify(file)}))`, { NODE_OPTIONS: "--max-old-space-size=300" }).stdout).toBe(withFlags);
    expect(node(`process.stdout.write(require(${loader}).codeCacheFile(${JSON.stringify(file)}))`, { NODE_OPTIONS: "--require node:path" }).stdout).toBe(name);
  });

  it("a cache for another runtime is never read: the first start on the vm loader writes this runtime's, which V8 takes", () => {
    // The build's cache renamed as another runtime's (the build may have run on another Node than this test).
    const pkg = packageCopy((p) => {
      const dir = path.join(p, "dist", "cli");
      const [made, ...others] = fs.readdirSync(dir).filter((f) => f.endsWith(".v8cache"));
      fs.renameSync(path.join(dir, made!), path.join(dir, `cli.bundle.cjs.v18.0.0-${process.arch}-00000000.v8cache`));
      for (const cache of others) fs.rmSync(path.join(dir, cache));
    });
    const expected = runCli(["--help"]);
    expect(fs.existsSync(codeCacheOf(pkg))).toBe(false);
    expect(runCli(["--help"], { bin: path.join(pkg, "bin", "aop.js"), env: { AOP_BUNDLE_LOADER: "vm" } })).toEqual(expected);
    expect(fs.existsSync(codeCacheOf(pkg))).toBe(true);
    expect(cacheAccepted(pkg)).toBe("true");
    expect(runCli(["--help"], { bin: path.join(pkg, "bin", "aop.js"), env: { AOP_BUNDLE_LOADER: "vm" } })).toEqual(expected);
    expect(fs.readdirSync(path.join(pkg, "dist", "cli")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("a cache V8 refuses is replaced; one that cannot be written, or whose bundle changed since it was read, is left alone", () => {
    const corrupt = packageCopy((p) => fs.writeFileSync(codeCacheOf(p), Buffer.alloc(4096, 0x5a)));
    const expected = runCli(["--help"]);
    expect(runCli(["--help"], { bin: path.join(corrupt, "bin", "aop.js"), env: { AOP_BUNDLE_LOADER: "vm" } })).toEqual(expected);
    expect(cacheAccepted(corrupt)).toBe("true");

    // A folder where the cache should be: not read, not written, and the command runs as ever.
    const blocked = packageCopy((p) => {
      fs.rmSync(codeCacheOf(p), { force: true });
      fs.mkdirSync(codeCacheOf(p));
    });
    expect(runCli(["--help"], { bin: path.join(blocked, "bin", "aop.js"), env: { AOP_BUNDLE_LOADER: "vm" } })).toEqual(expected);
    expect(fs.statSync(codeCacheOf(blocked)).isDirectory()).toBe(true);
    expect(fs.readdirSync(path.join(blocked, "dist", "cli")).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    // The bundle rebuilt while a start ran from the old one: that start's bytecode is not the new one's.
    const swapped = packageCopy((p) => fs.rmSync(codeCacheOf(p), { force: true }));
    const file = path.join(swapped, BUNDLE);
    const loader = JSON.stringify(path.join(swapped, "bin", "load-bundle.cjs"));
    const run = node(`require(${loader}).loadBundle(${JSON.stringify(file)}); require("node:fs").appendFileSync(${JSON.stringify(file)}, "\\n// rebuilt\\n");`, { AOP_BUNDLE_LOADER: "vm" });
    expect(run.stderr).toBe("");
    expect(fs.existsSync(codeCacheOf(swapped))).toBe(false);
  });

  it("a stack trace (AOP_DEBUG=1) names the bundle's files in dist/, not the folder the build made their caches in", () => {
    // V8 keeps the name a code cache was made under; the build makes them before it swaps its folder in.
    const root = workspace();
    for (const loader of [undefined, "vm"]) {
      const r = runCli(["feature", "show", "feat_nope"], { cwd: root, env: { AOP_DEBUG: "1", AOP_BUNDLE_LOADER: loader } });
      expect(r.code, r.stderr).not.toBe(0);
      const frames = r.stderr.split("\n").filter((line) => line.trimStart().startsWith("at ") && line.includes(".cjs:"));
      expect(frames.length, r.stderr).toBeGreaterThan(2);
      for (const frame of frames) expect(frame, loader).toContain(path.join(REPO_ROOT, "dist", "cli") + path.sep);
    }
  });

  it("NODE_DISABLE_COMPILE_CACHE: no cache is written", () => {
    const pkg = packageCopy((p) => fs.rmSync(codeCacheOf(p), { force: true }));
    expect(runCli(["--help"], { bin: path.join(pkg, "bin", "aop.js"), env: { AOP_BUNDLE_LOADER: "vm", NODE_DISABLE_COMPILE_CACHE: "1" } }).code).toBe(0);
    expect(fs.existsSync(codeCacheOf(pkg))).toBe(false);
  });

  it.each([
    ["no code cache", (pkg: string) => fs.rmSync(codeCacheOf(pkg), { force: true })],
    ["a corrupt code cache", (pkg: string) => fs.writeFileSync(codeCacheOf(pkg), Buffer.alloc(4096, 0x5a))],
    ["a code cache made for another build of the bundle", (pkg: string) => fs.appendFileSync(path.join(pkg, BUNDLE), "\n// rebuilt\n")],
  ])("%s: the same output on both loaders, nothing on stderr", (_name, alter) => {
    const root = workspace();
    const bin = path.join(packageCopy(alter), "bin", "aop.js");
    for (const args of COMMANDS) {
      const expected = runCli(args, { cwd: root });
      for (const loader of [undefined, "vm"]) expect(runCli(args, { cwd: root, bin, env: { AOP_BUNDLE_LOADER: loader } }), `${args.join(" ")} ${loader ?? ""}`).toEqual(expected);
    }
  });

  it.skipIf(!hasCompileCache)("where Node has a compile cache too, a start still writes and takes the cache beside the bundle, not Node's", () => {
    const pkg = packageCopy((p) => fs.rmSync(codeCacheOf(p), { force: true }));
    const bin = path.join(pkg, "bin", "aop.js");
    const expected = runCli(["--help"]);
    expect(runCli(["--help"], { bin })).toEqual(expected);
    expect(fs.existsSync(codeCacheOf(pkg))).toBe(true);
    expect(cacheAccepted(pkg)).toBe("true");
    // Node names each file its compile cache handles: the bins, never the bundle.
    const logged = runCli(["--help"], { bin, env: { NODE_COMPILE_CACHE: tempDir("aop-compile-cache-"), NODE_DEBUG_NATIVE: "COMPILE_CACHE" } });
    expect(logged.stdout).toBe(expected.stdout);
    expect(logged.stderr).toContain("[compile cache]");
    expect(logged.stderr).not.toContain("cli.bundle.cjs");
  });

  it.skipIf(!hasCompileCache)("where the package's folder cannot be written, the bundle starts from Node's compile cache (keyed by Node itself)", ({ skip }) => {
    const pkg = packageCopy((p) => fs.rmSync(codeCacheOf(p), { force: true }));
    const mounted = readOnlyMount(pkg);
    if (mounted) skip(mounted.skip);
    const bin = path.join(pkg, "bin", "aop.js");
    const cacheDir = tempDir("aop-compile-cache-");
    const env = { NODE_COMPILE_CACHE: cacheDir };
    const expected = runCli(["--help"]);
    expect(runCli(["--help"], { bin, env })).toEqual(expected);
    expect(fs.existsSync(codeCacheOf(pkg))).toBe(false);
    const logged = runCli(["--help"], { bin, env: { ...env, NODE_DEBUG_NATIVE: "COMPILE_CACHE" } });
    expect(logged.stdout).toBe(expected.stdout);
    expect(logged.stderr).toMatch(/\[compile cache\] .*cli\.bundle\.cjs was accepted/);
  });

  it("the checkpoint and continuity-doctor bins run the same bundle's programs, named after the bins", () => {
    expect(runCli(["--help"], { bin: CHECKPOINT_BIN }).stdout).toMatch(/^Usage: checkpoint \[options\] \[command\]/);
    expect(runCli(["--help"], { bin: CONTINUITY_DOCTOR_BIN }).stdout).toMatch(/^Usage: continuity-doctor \[options\]/);
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    for (const bin of [CHECKPOINT_BIN, CONTINUITY_DOCTOR_BIN]) expect(runCli(["--version"], { bin }).stdout).toBe(`${pkg.version}\n`);
  });

  it("a copy without a build: an error code and a sentence naming the fix on every bin, no stack trace", () => {
    const pkg = packageCopy((p) => fs.rmSync(path.join(p, "dist"), { recursive: true }));
    for (const [bin, args] of [
      ["aop.js", ["feature", "list"]],
      ["aop.js", ["hook", "claude"]],
      ["checkpoint.cjs", ["validate"]],
      ["continuity-doctor.cjs", []],
    ] as const) {
      const r = runCli([...args], { bin: path.join(pkg, "bin", bin) });
      expect(r, bin).toMatchObject({ code: 1, stdout: "", stderr: expect.stringMatching(/^error not_built: .* is missing: this copy of aop is not built \(run `npm run build`\)\n$/) });
    }
  });
});
