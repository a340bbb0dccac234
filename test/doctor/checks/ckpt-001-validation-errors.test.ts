import { describe, expect, it } from "vitest";
import { ckpt001ValidationErrors } from "../../../src/doctor/checks/ckpt-001-validation-errors.js";
import { fixtureWorkspace, healthyCheckpoint, runCheck, type CheckpointFixture } from "./checkpoint-fixtures.js";

const healthy: [string, (root: string) => CheckpointFixture][] = [
  ["no checkpoints folder at all", () => ({})],
  ["a valid checkpoint", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } })],
  ["a checkpoint with warnings only", (root) => ({ files: { builder: healthyCheckpoint("builder", root, { context_primer: undefined }) } })],
];

const broken: [string, (root: string) => CheckpointFixture, RegExp[]][] = [
  ["invalid JSON", () => ({ files: { builder: "{ oops" } }), [/^builder\.checkpoint\.json: 1 validation error: is not valid JSON \(line 1, column 3/]],
  ["a bad status and a wrong skill in one file", (root) => ({ files: { builder: healthyCheckpoint("deployer", root, { status: "paused" }) } }), [/^builder\.checkpoint\.json: 2 validation errors: skill is .deployer. .*\(and 1 more\)$/]],
  ["two broken files, two findings", (root) => ({ files: { a: healthyCheckpoint("a", root, { phase: "" }), b: "[]" } }), [/^a\.checkpoint\.json: 1 validation error: phase must not be empty/, /^b\.checkpoint\.json: 1 validation error: must be a JSON object/]],
];

describe("CKPT_001_VALIDATION_ERRORS", () => {
  it("is a checkpoint-family check with remediation text", () => {
    expect(ckpt001ValidationErrors).toMatchObject({ id: "CKPT_001_VALIDATION_ERRORS", family: "checkpoint", severity: "warning" });
    expect(ckpt001ValidationErrors.remediation).toMatch(/aop checkpoint/);
  });

  it.each(healthy)("healthy: %s", async (_name, build) => {
    const result = await runCheck(ckpt001ValidationErrors, fixtureWorkspace(build));
    expect(result.findings).toEqual([]);
    expect(result.okMessage).toBeTruthy();
  });

  it.each(broken)("broken: %s", async (_name, build, messages) => {
    const result = await runCheck(ckpt001ValidationErrors, fixtureWorkspace(build));
    expect(result.findings.map((f) => f.message)).toHaveLength(messages.length);
    result.findings.forEach((f, i) => {
      expect(f.message).toMatch(messages[i]!);
      expect(f.refs![0]).toMatch(/^\.checkpoints\/.+\.checkpoint\.json$/);
    });
  });
});
