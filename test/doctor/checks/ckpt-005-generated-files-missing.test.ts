import { describe, expect, it } from "vitest";
import { ckpt005GeneratedFilesMissing } from "../../../src/doctor/checks/ckpt-005-generated-files-missing.js";
import { fixtureWorkspace, healthyCheckpoint, runCheck, type CheckpointFixture } from "./checkpoint-fixtures.js";

const healthy: [string, (root: string) => CheckpointFixture][] = [
  ["every listed file exists", (root) => ({ present: ["docs/api.md", "src/app.ts"], files: { builder: healthyCheckpoint("builder", root, { context_primer: { generated_files: ["docs/api.md", "src/app.ts"] } }) } })],
  ["no generated files listed", (root) => ({ files: { builder: healthyCheckpoint("builder", root) } })],
];

const broken: [string, (root: string) => CheckpointFixture, RegExp[]][] = [
  ["one of two listed files is gone", (root) => ({ present: ["docs/api.md"], files: { builder: healthyCheckpoint("builder", root, { context_primer: { generated_files: ["docs/api.md", "docs/removed.md"] } }) } }), [/^builder: generated file docs\/removed\.md \(context_primer\.generated_files\) does not exist$/]],
];

describe("CKPT_005_GENERATED_FILES_MISSING", () => {
  it("is a checkpoint-family check with remediation text", () => {
    expect(ckpt005GeneratedFilesMissing).toMatchObject({ id: "CKPT_005_GENERATED_FILES_MISSING", family: "checkpoint", severity: "warning" });
    expect(ckpt005GeneratedFilesMissing.remediation).toMatch(/aop checkpoint/);
  });

  it.each(healthy)("healthy: %s", async (_name, build) => {
    const result = await runCheck(ckpt005GeneratedFilesMissing, fixtureWorkspace(build));
    expect(result.findings).toEqual([]);
    expect(result.okMessage).toBeTruthy();
  });

  it.each(broken)("broken: %s", async (_name, build, messages) => {
    const result = await runCheck(ckpt005GeneratedFilesMissing, fixtureWorkspace(build));
    expect(result.findings.map((f) => f.message)).toHaveLength(messages.length);
    result.findings.forEach((f, i) => {
      expect(f.message).toMatch(messages[i]!);
      expect(f.refs![0]).toMatch(/^\.checkpoints\/.+\.checkpoint\.json$/);
    });
  });
});
