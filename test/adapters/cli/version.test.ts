// `aop --version`: the version, the Node running it and the workspace a command run there would use,
// answered by bin/aop.js before any module of aop loads (bin/version.cjs). Its workspace must be the one
// the root rule of src/store/workspace-root.ts finds: the two are compared case by case.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { packageCopy } from "../../helpers/package-copy.js";
import { distUrl, REPO_ROOT } from "../../helpers/paths.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";
import type * as WorkspaceRootModule from "../../../src/store/workspace-root.js";

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const { findWorkspaceRoot } = (await import(distUrl("store/workspace-root.js"))) as typeof WorkspaceRootModule;

interface Version {
  version: string;
  node: string;
  workspace: string | null;
}

function versionJson(args: string[], cwd: string, env: Record<string, string | undefined> = {}): Version {
  const r = runCli(["--version", "--json", ...args], { cwd, env });
  expect(r, r.stderr).toMatchObject({ code: 0, stderr: "" });
  return JSON.parse(r.stdout) as Version;
}

/** What a command run there would take as its workspace, or null where it would fail. */
function ruleRoot(cwd: string, root: string | undefined, env: Record<string, string | undefined>): string | null {
  try {
    return findWorkspaceRoot({ cwd, root, env: { ...env } });
  } catch {
    return null;
  }
}

describe("aop --version", () => {
  it("prints the version, the Node running it and the workspace, one per line", () => {
    const root = tempWorkspace();
    fs.mkdirSync(path.join(root, "src", "deep"), { recursive: true });
    const r = runCli(["--version"], { cwd: path.join(root, "src", "deep") });
    expect(r).toEqual({ code: 0, stderr: "", stdout: `${pkg.version}\nnode ${process.version} (${process.platform}-${process.arch})\nworkspace ${root}\n` });
    expect(runCli(["-V"], { cwd: root })).toEqual({ ...r, stdout: r.stdout });
  });

  it("says why there is no workspace outside one, and --json gives {version, node, workspace}", () => {
    const bare = tempDir("aop-bare-");
    expect(runCli(["--version"], { cwd: bare }).stdout.split("\n")[2]).toBe(`workspace none: no .aop/, agentic/orchestrator/ or .git/ from ${bare} up (\`aop init\` makes one)`);
    expect(versionJson([], bare)).toEqual({ version: pkg.version, node: process.version, workspace: null });
    expect(runCli(["--version", "--root", path.join(bare, "missing")], { cwd: bare }).stdout.split("\n")[2]).toBe(`workspace none: --root ${path.join(bare, "missing")} is not a folder`);
  });

  it("finds the workspace the root rule finds: markers, AOP_ROOT, --root, empty and missing folders", () => {
    const outer = tempWorkspace();
    const inner = path.join(outer, "packages", "web");
    fs.mkdirSync(path.join(inner, "agentic", "orchestrator"), { recursive: true });
    fs.mkdirSync(path.join(inner, "lib"), { recursive: true });
    const aop = tempDir("aop-marked-");
    fs.mkdirSync(path.join(aop, ".aop", "runtime"), { recursive: true });
    const bare = tempDir("aop-bare-");
    const cases: [string, string, string | undefined, Record<string, string | undefined>][] = [
      ["a .git folder above", path.join(outer, "packages"), undefined, {}],
      ["agentic/orchestrator nearer than .git", path.join(inner, "lib"), undefined, {}],
      ["a .aop folder", path.join(aop, ".aop", "runtime"), undefined, {}],
      ["no marker", bare, undefined, {}],
      ["AOP_ROOT", bare, undefined, { AOP_ROOT: aop }],
      ["AOP_ROOT relative", outer, undefined, { AOP_ROOT: "packages" }],
      ["AOP_ROOT empty", outer, undefined, { AOP_ROOT: "" }],
      ["AOP_ROOT missing", outer, undefined, { AOP_ROOT: path.join(bare, "nope") }],
      ["--root over AOP_ROOT", bare, outer, { AOP_ROOT: aop }],
      ["--root relative", outer, "packages/web", {}],
      ["--root a file", outer, path.join(REPO_ROOT, "package.json"), {}],
    ];
    for (const [name, cwd, root, env] of cases) {
      const args = root === undefined ? [] : ["--root", root];
      expect(versionJson(args, cwd, env).workspace, name).toBe(ruleRoot(cwd, root, env));
    }
    expect(versionJson([`--root=${outer}`], bare).workspace).toBe(outer);
  });

  it("loads no module of aop: a copy without dist/ answers it", () => {
    const bin = path.join(packageCopy((p) => fs.rmSync(path.join(p, "dist"), { recursive: true })), "bin", "aop.js");
    const root = tempWorkspace();
    for (const args of [["--version"], ["-V", "--json"], ["--json", "--version", "--root", root]]) {
      expect(runCli(args, { cwd: root, bin }), args.join(" ")).toMatchObject({ code: 0, stderr: "", stdout: expect.stringContaining(pkg.version) });
    }
  });

  it("beside any other flag or a command, it is commander's: the version alone", () => {
    expect(runCli(["--version", "--actor", "qa"]).stdout).toBe(`${pkg.version}\n`);
  });
});
