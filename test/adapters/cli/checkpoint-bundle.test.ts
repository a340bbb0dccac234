// `checkpoint validate` runs from a one-file bundle of the compiled modules, started from V8's cached
// bytecode (scripts/bundle-bins.mjs, bin/load-bundle.cjs, docs/startup.md). Every route must print the
// same bytes and exit with the same code: the bundle, the modular build it falls back to, the
// commander program, and (for --json) the checkpoint.validate tool itself.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { CHECKPOINT_BIN, CLI_BIN, REPO_ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/tmp.js";
import { packageCopy } from "../../helpers/package-copy.js";
import { checkpointWorkspace, exampleCheckpoint, minimalCheckpoint } from "../../domains/checkpoints/fixture.js";

const BUNDLE = path.join("dist", "adapters", "cli", "checkpoint", "fast-path.bundle.cjs");
const CODE_CACHE = `${BUNDLE}.v8cache`;
const NOW = "2026-03-01T10:00:00.000Z";


/** Valid, warnings only, schema errors, rule errors, an unknown key, broken JSON. */
function fixtureFolder(): string {
  return checkpointWorkspace({
    architect: exampleCheckpoint(),
    quiet: minimalCheckpoint("quiet", { context_primer: undefined, blockers: [{ id: "b1", description: "x", needs: "code_fix", blocking: "nowhere" }] }),
    paused: minimalCheckpoint("paused", { status: "paused", progress_table: [{ id: "a", label: "A", status: "finished" }] }),
    renamed: minimalCheckpoint("other-name", { created_at: "2026-03-01T10:00:00.000Z", updated_at: "2026-02-30T09:00:00.000Z" }),
    typo: minimalCheckpoint("typo", { next_action: "Write it" }),
    broken: '{\n  "skill": "broken",\n}',
  });
}

const ARGS: [string, string[]][] = [[], ["--json"], ["--strict"], ["--strict", "--json"], ["--dir", ".checkpoints"]].map((args) => [args.join(" ") || "(no flags)", args]);

describe("checkpoint validate: the bundled route prints exactly what the other routes print", () => {
  let root: string;
  let modularBin: string;
  let modularAop: string;
  beforeAll(() => {
    for (const built of [BUNDLE, CODE_CACHE]) if (!fs.existsSync(path.join(REPO_ROOT, built))) throw new Error(`${built} is missing: run \`node scripts/build.mjs\` first`);
    root = fixtureFolder();
    const withoutBundle = packageCopy((pkg) => fs.rmSync(path.join(pkg, BUNDLE)));
    modularBin = path.join(withoutBundle, "bin", "checkpoint.cjs");
    modularAop = path.join(withoutBundle, "bin", "aop.js");
  });

  it.each(ARGS)("validate %s: bundle, aop, modular build and commander program agree", (_flags, args) => {
    for (const env of [{ AOP_NOW: NOW }, { AOP_NOW: NOW, NO_COLOR: undefined, FORCE_COLOR: "1" }]) {
      const bundled = runCli(["validate", ...args], { cwd: root, env, bin: CHECKPOINT_BIN });
      expect(bundled.code).toBe(1);
      expect(bundled.stderr).toBe("");
      expect(bundled.stdout).toMatch(/broken\.checkpoint\.json/);
      const routes: [string, CliResult][] = [
        ["aop checkpoint validate (same bundle, ES module entry)", runCli(["checkpoint", "validate", ...args], { cwd: root, env })],
        ["modular build (no bundle)", runCli(["validate", ...args], { cwd: root, env, bin: modularBin })],
        ["aop checkpoint validate, modular build (no bundle)", runCli(["checkpoint", "validate", ...args], { cwd: root, env, bin: modularAop })],
        ["commander program (aop --root … checkpoint validate)", runCli(["--root", root, "checkpoint", "validate", ...args], { cwd: root, env, bin: CLI_BIN })],
      ];
      for (const [route, result] of routes) expect(result, route).toEqual(bundled);
    }
  });

  it.each([[[], {}], [["--strict"], { strict: true }]] as const)("validate %j --json prints byte for byte the checkpoint.validate tool's data", (flags, args) => {
    const bundled = runCli(["validate", ...flags, "--json"], { cwd: root, env: { AOP_NOW: NOW }, bin: CHECKPOINT_BIN });
    const tool = runCli(["call", "checkpoint.validate", "--args", JSON.stringify(args), "--json"], { cwd: root, env: { AOP_NOW: NOW } });
    const envelope = JSON.parse(tool.stdout) as { ok: boolean; data: unknown };
    expect(envelope.ok).toBe(true);
    expect(bundled.stdout).toBe(JSON.stringify(envelope.data, null, 2) + "\n");
  });

  it("the human output names every problem of the fixture set", () => {
    const r = runCli(["validate"], { cwd: root, env: { AOP_NOW: NOW }, bin: CHECKPOINT_BIN });
    expect(r.stdout.split("\n").filter((l) => /^[✓✗!] /.test(l))).toEqual([
      "✓ architect.checkpoint.json",
      "✗ broken.checkpoint.json",
      "✗ paused.checkpoint.json",
      "! quiet.checkpoint.json",
      "✗ renamed.checkpoint.json",
      "✓ typo.checkpoint.json",
    ]);
    expect(r.stdout).toContain("    hint    next_action: is not a Checkpoint Protocol field");
    expect(r.stdout).toMatch(/\n6 files: 3 valid, 3 with errors; 5 errors, 2 warnings, 1 hint — failed\n$/);
  });

  it("validate's own flag before the subcommand is the same usage error through every route (flags are declared once)", () => {
    for (const [label, argv, bin] of [
      ["checkpoint bin", ["--strict", "validate"], CHECKPOINT_BIN],
      ["modular build", ["--strict", "validate"], modularBin],
      ["aop checkpoint", ["checkpoint", "--strict", "validate"], CLI_BIN],
    ] as const) {
      const r = runCli([...argv], { cwd: root, env: { AOP_NOW: NOW }, bin });
      expect(r, label).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(/^error usage_error: unknown option '--strict'/) });
    }
  });

  it("valid files only: exit 0 through every route", () => {
    const valid = checkpointWorkspace({ architect: exampleCheckpoint(), builder: minimalCheckpoint("builder") });
    const bundled = runCli(["validate", "--strict"], { cwd: valid, env: { AOP_NOW: NOW }, bin: CHECKPOINT_BIN });
    expect(bundled).toMatchObject({ code: 0, stdout: expect.stringMatching(/2 files: 2 valid, 0 with errors; 0 errors, 0 warnings — ok\n$/) });
    expect(runCli(["validate", "--strict"], { cwd: valid, env: { AOP_NOW: NOW }, bin: modularBin })).toEqual(bundled);
  });
});

describe("checkpoint validate: a missing or foreign code cache only costs time", () => {
  it("the build's code cache is one V8 accepts for the bundle as the bins load it", () => {
    const probe = `const { compileBundle } = require(${JSON.stringify(path.join(REPO_ROOT, "bin", "load-bundle.cjs"))});
      const fs = require("node:fs");
      const file = ${JSON.stringify(path.join(REPO_ROOT, BUNDLE))};
      const { script } = compileBundle(file, fs.readFileSync(file, "utf8"), fs.readFileSync(file + ".v8cache"));
      process.stdout.write(String(script.cachedDataRejected));`;
    const result = spawnSync(process.execPath, ["-e", probe], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("false");
  });

  it.each([
    ["no code cache", (pkg: string) => fs.rmSync(path.join(pkg, CODE_CACHE))],
    ["a corrupt code cache", (pkg: string) => fs.writeFileSync(path.join(pkg, CODE_CACHE), Buffer.alloc(4096, 0x5a))],
    ["a code cache made for another build of the bundle", (pkg: string) => fs.appendFileSync(path.join(pkg, BUNDLE), "\n// rebuilt\n")],
  ])("%s: same output, nothing on stderr", (_name, alter) => {
    const root = fixtureFolder();
    const bin = path.join(packageCopy(alter), "bin", "checkpoint.cjs");
    for (const args of [["validate"], ["validate", "--json"]]) {
      const expected = runCli(args, { cwd: root, env: { AOP_NOW: NOW }, bin: CHECKPOINT_BIN });
      expect(runCli(args, { cwd: root, env: { AOP_NOW: NOW }, bin })).toEqual(expected);
    }
  });
});

describe("output redirected to a file or /dev/null (written directly, without process.stdout)", () => {
  /** Runs a bin with stdout sent to `target` (a file path or /dev/null); colors left to the bin to decide. */
  function runInto(target: string, bin: string, args: string[], cwd: string) {
    const fd = fs.openSync(target, "w");
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, AOP_NOW: NOW };
      delete env.NO_COLOR;
      delete env.FORCE_COLOR;
      const r = spawnSync(process.execPath, [bin, ...args], { cwd, env, stdio: ["ignore", fd, "pipe"], encoding: "utf8" });
      return { code: r.status, stderr: r.stderr };
    } finally {
      fs.closeSync(fd);
    }
  }

  it.each([
    ["checkpoint validate", CHECKPOINT_BIN, ["validate"]],
    ["checkpoint validate --json", CHECKPOINT_BIN, ["validate", "--json"]],
    ["aop checkpoint list --json (the commander program)", CLI_BIN, ["checkpoint", "list", "--json"]],
  ])("%s: a file receives exactly what a pipe receives, without colors; /dev/null gets the same exit code", (_name, bin, args) => {
    const root = fixtureFolder();
    const piped = runCli(args, { cwd: root, env: { AOP_NOW: NOW, NO_COLOR: undefined }, bin });
    expect(piped.stdout.includes("\u001b[")).toBe(false);
    const file = path.join(tempDir(), "out.txt");
    expect(runInto(file, bin, args, root)).toEqual({ code: piped.code, stderr: piped.stderr });
    expect(fs.readFileSync(file, "utf8")).toBe(piped.stdout);
    expect(runInto("/dev/null", bin, args, root)).toEqual({ code: piped.code, stderr: piped.stderr });
  });
});

describe("the bundle holds the validate route only", () => {
  it("commander, the other subcommands and the other schemas stay out of it", () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, BUNDLE), "utf8");
    expect(source).not.toMatch(/require\("commander"\)/);
    // Each compiled validator holds its schema's $id (the bundle is minified: no module comments).
    expect(new Set(source.match(/aop-continuity\.dev\/schemas\/[^"]+/g))).toEqual(new Set(["aop-continuity.dev/schemas/checkpoint/checkpoint.schema.json"]));
    expect(source).not.toMatch(/\bimport\(/);
  });

  it("other subcommands, help and usage errors still work from the bin (they load the commander program)", () => {
    const root = fixtureFolder();
    const list = runCli(["list", "--json"], { cwd: root, bin: CHECKPOINT_BIN });
    expect(JSON.parse(list.stdout).checkpoints).toHaveLength(6);
    expect(runCli(["validate", "--help"], { cwd: root, bin: CHECKPOINT_BIN })).toMatchObject({ code: 0, stdout: expect.stringMatching(/Example/) });
    expect(runCli(["validate", "--bogus"], { cwd: root, bin: CHECKPOINT_BIN })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error usage_error: unknown option '--bogus'/) });
  });
});
