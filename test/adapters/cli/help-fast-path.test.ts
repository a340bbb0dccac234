// `aop --help` runs from a one-file bundle started from V8's cached bytecode (scripts/bundle-bins.mjs,
// docs/startup.md). It must print what the commander program prints, on the same stream, with the same
// exit code; any other command line is left to the program.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isProgramHelp } from "../../../src/adapters/cli/help-fast-path.js";
import { runCli, type CliResult } from "../../helpers/cli.js";
import { distUrl, REPO_ROOT } from "../../helpers/paths.js";
import { packageCopy } from "../../helpers/package-copy.js";

const BUNDLE = path.join("dist", "adapters", "cli", "help-fast-path.bundle.cjs");

/** The commander program itself (dist/adapters/cli/main.js), never a fast route. */
function runProgram(args: string[], env: Record<string, string>): CliResult {
  const code = `const { main } = await import(${JSON.stringify(distUrl("adapters/cli/main.js"))}); await main(process.argv.slice(1));`;
  // `--`: the arguments are the program's, not node's (node has a --help of its own).
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code, "--", ...args], { env: { ...process.env, NO_COLOR: "1", ...env }, encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe("the program's help route", () => {
  let modular: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(REPO_ROOT, BUNDLE))) throw new Error(`${BUNDLE} is missing: run \`node scripts/build.mjs\` first`);
    modular = path.join(packageCopy((pkg) => fs.rmSync(path.join(pkg, BUNDLE))), "bin", "aop.js");
  });

  it.each([[[]], [["--help"]], [["-h"]], [["help"]]])("%j: the bundle, the modular build and the program print the same, where they print it", (argv) => {
    const envs: Record<string, string>[] = [{}, { COLUMNS: "200" }, { FORCE_COLOR: "1" }];
    for (const env of envs) {
      const bundled = runCli(argv, { env });
      expect(bundled.code).toBe(0);
      expect(bundled.stdout + bundled.stderr).toMatch(/^Usage: aop \[options\] \[command\]/);
      expect(bundled.stdout + bundled.stderr).toMatch(/Every command has --help with an example/);
      expect(runCli(argv, { env, bin: modular })).toEqual(bundled);
      expect(runProgram(argv, env)).toEqual(bundled);
    }
  });

  it("holds commander and the command list, no command module", () => {
    const source = fs.readFileSync(path.join(REPO_ROOT, BUNDLE), "utf8");
    expect(source).toMatch(/display help for command/);
    expect(source).not.toMatch(/commands\/[a-z-]+\.js/);
    expect(source).not.toMatch(/\bimport\(/);
  });

  it.each([[["feature", "--help"]], [["--help", "feature"]], [["--version"]], [["--json"]], [["help", "replay"]], [["--help", "--help"]]])("leaves %j to the program", (argv) => {
    expect(isProgramHelp(argv)).toBe(false);
  });
});
