// `checkpoint doctor` is a presenter over the doctor engine's checkpoint family: the same findings as
// `aop doctor`'s CKPT_* checks, regrouped per file in the order a person reads them.
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../../../src/core/clock.js";
import { WorkspaceLayout } from "../../../../src/store/layout.js";
import { runCheckpointDoctor } from "../../../../src/domains/checkpoints/index.js";
import { runDoctor } from "../../../../src/domains/doctor/engine.js";
import { DOCTOR_FAMILIES } from "../../../../src/app/doctor-checks.js";
import { fixtureWorkspace, healthyCheckpoint, NOW } from "./checkpoint-fixtures.js";

describe("checkpoint doctor over the engine", () => {
  it("holds exactly the CKPT_* findings of aop doctor, per file, each file's kinds in rule order", async () => {
    const root = fixtureWorkspace((r) => ({
      files: {
        // a: a validation warning and two missing generated files; b: a schema error; c: stale and a missing project_dir
        a: healthyCheckpoint("a", r, { context_primer: { key_decisions: [], generated_files: ["gen/one.md", "gen/two.md"], user_preferences: [] }, blockers: [{ id: "b1", description: "x", needs: "code_fix", blocking: "nowhere" }] }),
        b: healthyCheckpoint("b", r, { status: "paused" }),
        c: healthyCheckpoint("c", r, { project_dir: "/nowhere/at/all", created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" }),
      },
    }));
    const layout = new WorkspaceLayout(root);
    const run = await runCheckpointDoctor(layout, fixedClock(NOW));
    expect(run.findings.map((f) => [f.file, f.kind, f.level])).toEqual([
      ["a.checkpoint.json", "validation_warning", "warning"],
      ["a.checkpoint.json", "generated_file_missing", "warning"],
      ["a.checkpoint.json", "generated_file_missing", "warning"],
      ["b.checkpoint.json", "validation_error", "error"],
      ["c.checkpoint.json", "project_dir_missing", "warning"],
      ["c.checkpoint.json", "stale", "warning"],
    ]);
    expect(run.findings.map((f) => f.message).filter((m) => m.includes("gen/"))).toEqual([expect.stringContaining("gen/one.md"), expect.stringContaining("gen/two.md")]);
    const { report } = await runDoctor({ layout, clock: fixedClock(NOW), env: {}, families: DOCTOR_FAMILIES, only: "checkpoint" });
    expect(report.findings.map((f) => f.message).sort()).toEqual(run.findings.map((f) => f.message).sort());
    expect(run.scan.files).toHaveLength(3);
    expect(run.policyProblems).toBe(0);
  });
});
