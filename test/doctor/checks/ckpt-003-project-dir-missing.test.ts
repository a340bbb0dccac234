import { describe, expect, it } from "vitest";
import { ckpt003ProjectDirMissing } from "../../../src/doctor/checks/ckpt-003-project-dir-missing.js";
import { fixtureWorkspace, healthyCheckpoint, runCheck, type CheckpointFixture } from "./checkpoint-fixtures.js";

const healthy: [string, (root: string) => CheckpointFixture][] = [
  ["project_dir is the workspace", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } })],
  ["project_dir is relative and exists", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { project_dir: "." }) } })],
  ["a missing project_dir in a git repository root (another clone)", (root) => ({ git: true, files: { builder: healthyCheckpoint("builder", root, { project_dir: "/home/someone-else/shop-api" }) } })],
];

const broken: [string, (root: string) => CheckpointFixture, RegExp[]][] = [
  ["project_dir from another machine", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { project_dir: "/home/someone-else/shop-api" }) } }), [/^builder: project_dir \/home\/someone-else\/shop-api does not exist on this machine$/]],
];

describe("CKPT_003_PROJECT_DIR_MISSING", () => {
  it("is a checkpoint-family check with remediation text", () => {
    expect(ckpt003ProjectDirMissing).toMatchObject({ id: "CKPT_003_PROJECT_DIR_MISSING", family: "checkpoint", severity: "warning" });
    expect(ckpt003ProjectDirMissing.remediation).toMatch(/aop checkpoint/);
  });

  it.each(healthy)("healthy: %s", async (_name, build) => {
    const result = await runCheck(ckpt003ProjectDirMissing, fixtureWorkspace(build));
    expect(result.findings).toEqual([]);
    expect(result.okMessage).toBeTruthy();
  });

  it.each(broken)("broken: %s", async (_name, build, messages) => {
    const result = await runCheck(ckpt003ProjectDirMissing, fixtureWorkspace(build));
    expect(result.findings.map((f) => f.message)).toHaveLength(messages.length);
    result.findings.forEach((f, i) => {
      expect(f.message).toMatch(messages[i]!);
      expect(f.refs![0]).toMatch(/^\.checkpoints\/.+\.checkpoint\.json$/);
    });
  });
});
