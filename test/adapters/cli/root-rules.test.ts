// Root rules and empty values (docs/hardening.md): no command but `aop init` creates a workspace where
// there was none, and an empty string is a mistake with a clear error, never "not set".
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mcpClient } from "../../../src/app/clients/mcp.js";
import { findMarkedRoot } from "../../../src/store/workspace-root.js";
import { CHECKPOINT_BIN, CONTINUITY_DOCTOR_BIN } from "../../helpers/paths.js";
import { runCli, runJson } from "../../helpers/cli.js";
import { tempDir, tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";

/** A folder with no workspace marker in it or above it. */
function unmarked(): string {
  const dir = tempDir("aop-nowhere-");
  expect(findMarkedRoot(dir), "the temp folder must not lie inside a workspace for this test").toBeNull();
  return dir;
}

function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}

describe("root rules: no command but aop init creates a workspace where there was none", () => {
  it.each([
    ["feature list", ["feature", "list"]],
    ["feature init", ["feature", "init", "feat_a"]],
    ["replay --list", ["replay", "--list"]],
    ["run start", ["run", "start"]],
    ["config check", ["config", "check"]],
    ["checkpoint update", ["checkpoint", "update", "builder", "--status=blocked"]],
  ])("%s in an unmarked folder fails with workspace_not_found and writes nothing", (_name, args) => {
    const cwd = unmarked();
    const r = runCli(args, { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error workspace_not_found: no workspace here: no folder from .* holds \.aop\/, agentic\/orchestrator\/, \.git\//m);
    expect(r.stderr).toMatch(/^hint: run `aop init`/m);
    expect(tree(cwd)).toEqual([]);
  });

  it("the doctor in an unmarked folder cannot run (exit 3) and writes nothing", () => {
    const cwd = unmarked();
    const r = runCli(["doctor"], { cwd });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/workspace_not_found/);
    expect(tree(cwd)).toEqual([]);
  });

  it("aop init makes the current folder a workspace; commands then work there", () => {
    const cwd = unmarked();
    expect(runCli(["init"], { cwd }).code).toBe(0);
    expect(fs.existsSync(path.join(cwd, ".aop"))).toBe(true);
    expect(runCli(["feature", "list"], { cwd }).code).toBe(0);
  });

  it("commands that need no workspace work anywhere", () => {
    const cwd = unmarked();
    expect(runCli(["tools"], { cwd }).code).toBe(0);
    expect(tree(cwd)).toEqual([]);
  });

  it("--root naming a folder that does not exist is refused (only aop init creates it)", () => {
    const parent = unmarked();
    const missing = path.join(parent, "not-yet");
    const r = runCli(["--root", missing, "feature", "list"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error workspace_not_found: --root .*not-yet does not exist/m);
    expect(fs.existsSync(missing)).toBe(false);
    expect(runCli(["--root", missing, "init"]).code).toBe(0);
    expect(fs.existsSync(path.join(missing, ".aop"))).toBe(true);
  });

  it("aop checkpoint init --root names a new folder: it is created, with its parents", () => {
    const missing = path.join(unmarked(), "new", "project");
    const r = runCli(["--root", missing, "checkpoint", "init"]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(missing, ".checkpoints", ".gitignore"))).toBe(true);
  });

  it("a workspace removed under aop mcp is not created again: writing calls fail with workspace_not_found, reads find nothing", async () => {
    const root = tempWorkspace();
    const client = await mcpClient({ root, env: { ...process.env }, stderr: "pipe" });
    try {
      expect((await client.callTool("feature.init", { feature_id: "feat_a", operation_id: "op-removed-01" })).envelope).toMatchObject({ ok: true });
      fs.rmSync(root, { recursive: true });
      for (const [tool, args] of [
        ["feature.init", { feature_id: "feat_b", operation_id: "op-removed-02" }],
        ["checkpoint.init", { operation_id: "op-removed-03" }],
      ] as const) {
        const r = await client.callTool(tool, args);
        expect(r.envelope, tool).toMatchObject({ ok: false, error: { code: "workspace_not_found" } });
        expect(fs.existsSync(root), `${tool} created the removed workspace again`).toBe(false);
      }
      // A read answers what is there (nothing); its timeline entry is not written (best_effort warns).
      expect((await client.callTool("feature.list", {})).envelope).toMatchObject({ ok: true, data: { features: [] } });
      expect(fs.existsSync(root)).toBe(false);
    } finally {
      await client.close();
    }
    expect(fs.existsSync(root)).toBe(false);
  }, 30_000);

  it("the checkpoint commands treat a folder holding .checkpoints/ as the project, and --dir names one", () => {
    const cwd = unmarked();
    writeFile(cwd, ".checkpoints/builder.checkpoint.json", JSON.stringify(minimalCheckpoint("builder")));
    expect(runCli(["validate"], { cwd, bin: CHECKPOINT_BIN }).code).toBe(0);
    expect(runCli(["checkpoint", "validate"], { cwd }).code).toBe(0);
    const elsewhere = unmarked();
    expect(runCli(["checkpoint", "validate", "--dir", path.join(cwd, ".checkpoints")], { cwd: elsewhere }).code).toBe(0);
    expect(tree(elsewhere)).toEqual([]);
  });

  it("the continuity doctor treats a folder holding memory/ as the workspace", () => {
    const cwd = unmarked();
    writeFile(cwd, "memory/CURRENT_STATE.md", "# Objective\nx\n");
    const r = runCli([], { cwd, bin: CONTINUITY_DOCTOR_BIN });
    expect(r.stdout).toMatch(/\[OK\]\s+memory\/CURRENT_STATE\.md exists/);
  });
});

describe("empty strings are invalid values, not 'absent'", () => {
  it("--root '' is refused and creates nothing in the current folder", () => {
    const cwd = unmarked();
    const r = runCli(["--root", "", "feature", "list"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error invalid_argument: --root is empty; an empty value does not mean "not set"/m);
    expect(tree(cwd)).toEqual([]);
  });

  it.each([
    ["--operation-id", ["feature", "set-status", "feat_a", "blocked", "--operation-id", ""]],
    ["--run-id", ["--run-id", "", "feature", "list"]],
    ["--session-id", ["--session-id", "", "feature", "list"]],
  ])("%s '' is refused with invalid_argument naming the flag, and nothing runs", (flag, args) => {
    const root = tempWorkspace();
    expect(runCli(["--root", root, "feature", "init", "feat_a"]).code).toBe(0);
    const r = runJson<{ ok: false; error: { code: string; message: string; details: { field: string } } }>(["--root", root, ...args]);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: "invalid_argument", details: { field: flag } });
    expect(r.json.error.message).toContain(flag);
    // The empty operation id used to run the call (twice, on retry): the feature is unchanged.
    expect(runJson<{ feature: { version: number; status: string } }>(["--root", root, "feature", "show", "feat_a"]).json.feature).toMatchObject({ version: 1, status: "active" });
  });

  it.each(["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR"])("%s='' is refused with invalid_argument naming the variable", (variable) => {
    const root = tempWorkspace();
    const r = runCli(variable === "AOP_ROOT" ? ["feature", "list"] : ["--root", root, "feature", "list"], { cwd: root, env: { [variable]: "" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error invalid_argument: ${variable} is set but empty`, "m"));
  });

  it("operation_id '' in tool arguments is invalid_argument, in-process and over MCP", async () => {
    const root = tempWorkspace();
    expect(runCli(["--root", root, "feature", "init", "feat_a"]).code).toBe(0);
    const args = JSON.stringify({ feature_id: "feat_a", status: "blocked", operation_id: "" });
    const cli = runJson<{ error: { code: string; details: { field: string } } }>(["--root", root, "call", "feature.set_status", "--args", args]);
    expect(cli.json.error).toMatchObject({ code: "invalid_argument", details: { field: "operation_id" } });
    const client = await mcpClient({ root, env: { ...process.env }, stderr: "pipe" });
    try {
      const r = await client.callTool("feature.set_status", { feature_id: "feat_a", status: "blocked", operation_id: "" });
      expect(r.envelope).toMatchObject({ ok: false, error: { code: "invalid_argument", details: { field: "operation_id" } } });
      const filter = await client.callTool("replay.timeline_get", { run_id: "r", tool_name: "" });
      expect(filter.envelope).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    } finally {
      await client.close();
    }
  }, 30_000);
});
