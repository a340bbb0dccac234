import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../../src/core/clock.js";
import { buildReport, checkWorkspace, createSharedMemo, exitCodeFor, worstFirst } from "../../../src/domains/continuity/doctor-runner.js";
import type { DoctorCheck, Finding } from "../../../src/domains/doctor/check-types.js";
import { continuityChecks } from "../../../src/domains/continuity/checks/continuity-family.js";
import { makeWorkspace, NOW, stateMarkdown } from "../doctor/fixtures.js";

const run = (checks: readonly DoctorCheck[], homeDir: string) => ({ clock: fixedClock(NOW), env: {}, homeDir, checks, memo: createSharedMemo() });

describe("checkWorkspace", () => {
  it("a healthy workspace: no findings, one OK line per check that has something to say", async () => {
    const ws = makeWorkspace();
    const report = await checkWorkspace({ root: ws.root }, run(continuityChecks, ws.home));
    expect(report.findings).toEqual([]);
    expect(report.exit_code).toBe(0);
    expect(report.passed.map((p) => p.id)).toEqual(["CONT_001_STATE_FILE_MISSING", "CONT_002_STATE_FILE_STALE", "CONT_003_SECTION_MISSING", "CONT_004_PLACEHOLDER_TEXT", "CONT_005_UNSURFACED_RESULTS", "CONT_006_ARCHIVE_OBJECTIVE_CHANGED"]);
  });

  it("a check that throws becomes a doctor_check_failed finding naming it; the others still run", async () => {
    const ws = makeWorkspace({ state: stateMarkdown({ Objective: null }) });
    const exploding: DoctorCheck = { id: "CONT_000_EXPLODES", severity: "info", title: "t", remediation: "r", run: () => { throw new Error("boom"); } };
    const report = await checkWorkspace({ root: ws.root }, run([exploding, ...continuityChecks], ws.home));
    expect(report.findings.map((f) => [f.id, f.severity, f.message])).toEqual([
      ["doctor_check_failed", "warning", "check CONT_000_EXPLODES failed to run: boom"],
      ["CONT_003_SECTION_MISSING", "warning", "Missing section: ## Objective"],
    ]);
    expect(report.exit_code).toBe(1);
  });

  it("a workspace that does not exist is one critical finding", async () => {
    const ws = makeWorkspace();
    const missing = path.join(ws.root, "nope");
    const report = await checkWorkspace({ root: missing, origin: "--workspace" }, run(continuityChecks, ws.home));
    expect(report.findings).toEqual([expect.objectContaining({ id: "CONT_WORKSPACE_MISSING", severity: "critical", message: `workspace does not exist: ${missing} (from --workspace)` })]);
    expect(report.exit_code).toBe(2);
  });
});

describe("report", () => {
  const f = (severity: Finding["severity"], id = "X"): Finding => ({ id, severity, message: id, remediation: "r", refs: [] });

  it("exit code of the worst finding; info alone is healthy", () => {
    expect(exitCodeFor({ critical: 0, warning: 0, info: 3 })).toBe(0);
    expect(exitCodeFor({ critical: 0, warning: 1, info: 0 })).toBe(1);
    expect(exitCodeFor({ critical: 1, warning: 1, info: 0 })).toBe(2);
  });

  it("worstFirst keeps check order within a severity", () => {
    expect(worstFirst([f("info", "a"), f("warning", "b"), f("critical", "c"), f("warning", "d")]).map((x) => x.id)).toEqual(["c", "b", "d", "a"]);
  });

  it("problems outside any workspace count toward the exit code", () => {
    expect(buildReport([], [f("critical")], [])).toMatchObject({ ok: false, exit_code: 2, summary: { critical: 1, warning: 0, info: 0 } });
  });
});
