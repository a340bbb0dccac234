// Every `aop` command (and the `checkpoint` and `continuity-doctor` bins) runs from one CommonJS bundle
// started from V8's code cache (scripts/bundle-bins.mjs, bin/load-bundle.cjs, docs/startup.md): Node's
// own compile cache where Node has one, else the bytecode the build cached beside the bundle. A
// missing, corrupt or foreign cache costs time, never output; a checkout without a build says so.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import Module from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { packageCopy } from "../../helpers/package-copy.js";
import { CHECKPOINT_BIN, CONTINUITY_DOCTOR_BIN, REPO_ROOT } from "../../helpers/paths.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const BUNDLE = path.join("dist", "cli", "cli.bundle.cjs");
const CODE_CACHE = `${BUNDLE}.v8cache`;
const hasCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === "function";

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
    const probe = `const { compileBundle } = require(${JSON.stringify(path.join(pkg, "bin", "load-bundle.cjs"))});
      const fs = require("node:fs");
      const file = ${JSON.stringify(path.join(pkg, BUNDLE))};
      const { script } = compileBundle(file, fs.readFileSync(file, "latin1"), fs.readFileSync(file + ".v8cache"));
      process.stdout.write(String(script.cachedDataRejected));`;
    const result = spawnSync(process.execPath, ["-e", probe], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("false");
  });

  it.each([
    ["no code cache", (pkg: string) => fs.rmSync(path.join(pkg, CODE_CACHE))],
    ["a corrupt code cache", (pkg: string) => fs.writeFileSync(path.join(pkg, CODE_CACHE), Buffer.alloc(4096, 0x5a))],
    ["a code cache made for another build of the bundle", (pkg: string) => fs.appendFileSync(path.join(pkg, BUNDLE), "\n// rebuilt\n")],
  ])("%s: the same output on both loaders, nothing on stderr", (_name, alter) => {
    const root = workspace();
    const bin = path.join(packageCopy(alter), "bin", "aop.js");
    for (const args of COMMANDS) {
      const expected = runCli(args, { cwd: root });
      for (const loader of [undefined, "vm"]) expect(runCli(args, { cwd: root, bin, env: { AOP_BUNDLE_LOADER: loader } }), `${args.join(" ")} ${loader ?? ""}`).toEqual(expected);
    }
  });

  it.skipIf(!hasCompileCache)("where Node has a compile cache, the bundle is started from it (keyed by Node itself)", () => {
    const cacheDir = tempDir("aop-compile-cache-");
    const env = { NODE_COMPILE_CACHE: cacheDir };
    const first = runCli(["--help"], { env });
    expect(first.code).toBe(0);
    expect(fs.readdirSync(cacheDir, { recursive: true }).length).toBeGreaterThan(0);
    expect(runCli(["--help"], { env })).toEqual(first);
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
