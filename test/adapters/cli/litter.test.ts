// Litter (docs/hardening.md): read-only commands write nothing, refused changes leave no folder behind,
// a Claude session leaves no empty spool folder.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHECKPOINT_BIN, CONTINUITY_DOCTOR_BIN } from "../../helpers/paths.js";
import { runCli } from "../../helpers/cli.js";
import { tempDir, tempWorkspace, writeFile } from "../../helpers/tmp.js";

/** Every path under `root` but .git/, with file sizes: what "writes nothing" compares. */
function tree(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((p) => p !== ".git" && !p.startsWith(`.git${path.sep}`))
    .map((p) => {
      const stat = fs.statSync(path.join(root, p));
      return stat.isDirectory() ? `${p}/` : `${p} ${stat.size}`;
    })
    .sort();
}

const READ_ONLY: string[][] = [
  ["feature", "list"],
  ["feature", "show", "feat_a"],
  ["run", "status"],
  ["replay", "--list"],
  ["replay", "--run-id", "run-1"],
  ["evidence", "latest", "--feature-id", "feat_a"],
  ["evidence", "verify", "--all"],
  ["config", "check"],
  ["tools"],
  ["call", "feature.list", "--args", "{}"],
  ["--transport", "mcp", "feature", "list"],
  ["checkpoint", "status"],
  ["checkpoint", "list"],
  ["checkpoint", "show"],
  ["checkpoint", "validate"],
  ["checkpoint", "next"],
  ["checkpoint", "doctor"],
  ["checkpoint", "resume", "builder"],
  ["continuity", "doctor"],
];

describe("read-only commands write nothing", () => {
  it.each(READ_ONLY.map((args) => [args.join(" "), args] as const))("%s on a fresh workspace leaves the tree as it was", (_name, args) => {
    const root = tempWorkspace();
    writeFile(root, "memory/CURRENT_STATE.md", "# Objective\nx\n");
    const before = tree(root);
    runCli(["--root", root, ...args], { cwd: root });
    expect(tree(root)).toEqual(before);
  });

  it.each([
    ["aop", ["--root", "ROOT", "feature", "list"], undefined],
    ["aop doctor", ["--root", "ROOT", "doctor"], undefined],
    ["checkpoint", ["status", "--dir", "ROOT/.checkpoints"], CHECKPOINT_BIN],
    ["continuity-doctor", ["--workspace", "ROOT"], CONTINUITY_DOCTOR_BIN],
  ] as const)("%s under a --root that does not exist creates nothing", (_name, args, bin) => {
    const parent = tempDir();
    const root = path.join(parent, "missing");
    runCli(args.map((a) => a.replace("ROOT", root)), { cwd: parent, ...(bin ? { bin } : {}) });
    expect(fs.readdirSync(parent)).toEqual([]);
  });
});

describe("refused changes leave no folder behind", () => {
  it("feature set-status on a feature that does not exist creates no feature folder", () => {
    const root = tempWorkspace();
    const r = runCli(["--root", root, "feature", "set-status", "ghost", "blocked"]);
    expect(r.stderr).toMatch(/^error feature_not_found/m);
    expect(fs.existsSync(path.join(root, ".aop/features/ghost"))).toBe(false);
  });

  it("a refused checkpoint update creates no .checkpoints/", () => {
    const root = tempWorkspace();
    const r = runCli(["--root", root, "checkpoint", "update", "builder", "--status=bogus"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error checkpoint_invalid/m);
    expect(fs.existsSync(path.join(root, ".checkpoints"))).toBe(false);
  });
});

describe("a Claude session leaves no spool folder", () => {
  it.each([
    ["replay on", ""],
    ["replay off", "version: 1\nobservability:\n  replay:\n    enabled: false\n"],
  ])("%s: after PostToolUse and Stop the run's spool folder is gone", (_name, policy) => {
    const root = tempWorkspace();
    if (policy) writeFile(root, "agentic/orchestrator/policy.yaml", policy);
    const event = (name: string, extra: object = {}) => JSON.stringify({ session_id: "s-litter", transcript_path: "/nowhere", cwd: root, hook_event_name: name, ...extra });
    expect(runCli(["hook", "claude"], { cwd: root, input: event("PostToolUse", { tool_name: "Read", tool_input: {}, tool_response: {}, tool_use_id: "t1" }) }).code).toBe(0);
    expect(runCli(["hook", "claude"], { cwd: root, input: event("Stop", { stop_hook_active: false }) }).code).toBe(0);
    const replay = path.join(root, ".aop/runtime/replay");
    const left = fs.existsSync(replay) ? fs.readdirSync(replay).filter((n) => n.endsWith(".spool")) : [];
    expect(left).toEqual([]);
  });
});
