import { describe, expect, it } from "vitest";
import { ckpt002ValidationWarnings } from "../../../src/doctor/checks/ckpt-002-validation-warnings.js";
import { fixtureWorkspace, healthyCheckpoint, runCheck, type CheckpointFixture } from "./checkpoint-fixtures.js";

const healthy: [string, (root: string) => CheckpointFixture][] = [
  ["a clean checkpoint", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } })],
  ["a complete checkpoint without a progress table", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { status: "complete", progress_table: undefined, next_actions: [] }) } })],
];

const broken: [string, (root: string) => CheckpointFixture, RegExp[]][] = [
  ["no progress_table while in progress", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_table: undefined }) } }), [/^builder\.checkpoint\.json: 1 validation warning: progress_table is missing or empty/]],
  ["an oversized summary and an unknown key", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { progress_summary: "x".repeat(1500), notes: "n" }) } }), [/^builder\.checkpoint\.json: 2 validation warnings: .*\(and 1 more\)$/]],
];

describe("CKPT_002_VALIDATION_WARNINGS", () => {
  it("is a checkpoint-family check with remediation text", () => {
    expect(ckpt002ValidationWarnings).toMatchObject({ id: "CKPT_002_VALIDATION_WARNINGS", family: "checkpoint", severity: "info" });
    expect(ckpt002ValidationWarnings.remediation).toMatch(/aop checkpoint/);
  });

  it.each(healthy)("healthy: %s", async (_name, build) => {
    const result = await runCheck(ckpt002ValidationWarnings, fixtureWorkspace(build));
    expect(result.findings).toEqual([]);
    expect(result.okMessage).toBeTruthy();
  });

  it.each(broken)("broken: %s", async (_name, build, messages) => {
    const result = await runCheck(ckpt002ValidationWarnings, fixtureWorkspace(build));
    expect(result.findings.map((f) => f.message)).toHaveLength(messages.length);
    result.findings.forEach((f, i) => {
      expect(f.message).toMatch(messages[i]!);
      expect(f.refs![0]).toMatch(/^\.checkpoints\/.+\.checkpoint\.json$/);
    });
  });
});
