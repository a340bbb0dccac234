import fs from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { runDoctor } from "../../../src/domains/doctor/engine.js";
import { persistReport, HISTORY_KEEP } from "../../../src/domains/doctor/report-store.js";
import { buildReport, doctorExitCode } from "../../../src/domains/doctor/report.js";
import { fixedClock } from "../../../src/core/clock.js";
import { validateAgainst } from "../../../src/catalog/load-validator.js";
import type { DoctorCheck } from "../../../src/domains/doctor/check-types.js";
import { DriftFixture, entry, NOW } from "./drift-fixtures.js";
import { check as timelineCorruption } from "../../../src/domains/doctor/checks/drift-006-timeline-corruption.js";
import { check as timelineOldLines } from "../../../src/domains/doctor/checks/drift-013-timeline-old-lines.js";
import { runCli, runJson } from "../../helpers/cli.js";
import { DOCTOR_FAMILIES } from "../../../src/app/doctor-checks.js";

const broken = (f: DriftFixture) => f.index({ active: ["ghost"] }).lease("default", { run_id: "run:old", lease_expires_at: "2026-06-01T10:00:00.000Z" });

describe("doctor engine", () => {
  it("is deterministic: two runs differ only in generated_at", async () => {
    const f = broken(new DriftFixture());
    const a = await runDoctor({ layout: f.layout, clock: fixedClock(NOW), env: {}, families: DOCTOR_FAMILIES });
    const b = await runDoctor({ layout: f.layout, clock: fixedClock("2026-06-01T12:00:05.000Z"), env: {}, families: DOCTOR_FAMILIES });
    expect({ ...a.report, generated_at: "" }).toEqual({ ...b.report, generated_at: "" });
    expect(a.report.findings.map((x) => x.id)).toEqual([...a.report.findings.map((x) => x.id)].sort());
  });

  it("a broken policy is a DRIFT_001 finding and the other checks still run", async () => {
    const f = broken(new DriftFixture()).write("agentic/orchestrator/policy.yaml", "version: [1\n");
    const { report } = await runDoctor({ layout: f.layout, clock: fixedClock(NOW), env: {}, families: DOCTOR_FAMILIES });
    const ids = new Set(report.findings.map((x) => x.id));
    // Integrity is off by default and no gate has run: neither DRIFT_007 nor DRIFT_011 has anything to say.
    expect(ids).toEqual(new Set(["DRIFT_001_POLICY_SCHEMA_INVALID", "DRIFT_004_STALE_RUN_LEASE", "DRIFT_008_INDEX_STATE_INCONSISTENCY"]));
    expect(report.ok).toBe(false);
    expect(report.summary).toEqual({ critical: 2, warning: 1, info: 0 });
  });

  it("isolates a check that throws as doctor_check_failed", async () => {
    const boom: DoctorCheck = { id: "DRIFT_000_BOOM", severity: "critical", title: "t", remediation: "r", run: () => { throw new Error("kaput"); } };
    const fine: DoctorCheck = { id: "DRIFT_999_FINE", severity: "info", title: "t", remediation: "r", run: () => ({ findings: [{ message: "still ran" }] }) };
    const { report } = await runDoctor({ layout: new DriftFixture().layout, clock: fixedClock(NOW), env: {}, families: [{ name: "drift", applies: () => true, checks: [fine, boom] }] });
    expect(report.findings.map((x) => [x.id, x.message])).toEqual([
      ["DRIFT_999_FINE", "still ran"],
      ["doctor_check_failed", "check DRIFT_000_BOOM failed to run: kaput"],
    ]);
  });

  it("disabled by policy: one doctor_disabled info finding", async () => {
    const f = broken(new DriftFixture()).write("agentic/orchestrator/policy.yaml", "diagnostics:\n  doctor:\n    enabled: false\n");
    const { report } = await runDoctor({ layout: f.layout, clock: fixedClock(NOW), env: {}, families: DOCTOR_FAMILIES });
    expect(report.findings).toEqual([expect.objectContaining({ id: "doctor_disabled", severity: "info" })]);
    expect(report.ok).toBe(true);
  });

  it("keeps the newest 20 history files over 25 runs, every one schema-valid", async () => {
    const f = new DriftFixture();
    const clock = fixedClock(NOW);
    for (let i = 0; i < 25; i++) {
      clock.advance(1000);
      const { report } = await runDoctor({ layout: f.layout, clock, env: {}, families: DOCTOR_FAMILIES });
      await persistReport(f.layout, report);
    }
    const files = fs.readdirSync(f.layout.doctorHistoryDir).sort();
    expect(files).toHaveLength(HISTORY_KEEP);
    expect(files[0]).toBe("2026-06-01T12-00-06-000Z.json");
    for (const file of [...files.map((n) => `${f.layout.doctorHistoryDir}/${n}`), f.layout.doctorLastReport]) {
      expect(await validateAgainst("doctor_report", JSON.parse(fs.readFileSync(file, "utf8")))).toEqual([]);
    }
  });

  it("refuses to write a report that fails the schema", async () => {
    const f = new DriftFixture();
    const bad = buildReport([{ id: "not an id", severity: "info", message: "m", remediation: "r", refs: [] }], NOW);
    await expect(persistReport(f.layout, bad)).rejects.toMatchObject({ code: "internal_error" });
    expect(fs.existsSync(f.layout.doctorLastReport)).toBe(false);
  });

  it.each([
    ["no findings", { critical: 0, warning: 0, info: 0 }, [0, 0, 0]],
    ["info only", { critical: 0, warning: 0, info: 3 }, [0, 0, 0]],
    ["warnings", { critical: 0, warning: 2, info: 1 }, [0, 0, 1]],
    ["a critical", { critical: 1, warning: 0, info: 0 }, [0, 2, 2]],
  ] as const)("exit codes with %s: plain / strict(critical) / strict(warning)", (_name, summary, [plain, strictCritical, strictWarning]) => {
    const report = { ok: summary.critical === 0, generated_at: NOW, summary: { ...summary }, findings: [] };
    expect(doctorExitCode(report, false, "critical")).toBe(plain);
    expect(doctorExitCode(report, true, "critical")).toBe(strictCritical);
    expect(doctorExitCode(report, true, "warning")).toBe(strictWarning);
  });
});

describe("aop doctor", () => {
  it("prints worst first with ids, fixes and a summary line; --json prints the report", () => {
    const f = broken(new DriftFixture());
    const r = runCli(["doctor", "--root", f.layout.root], { env: { AOP_NOW: NOW } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^CRITICAL\s+DRIFT_008_INDEX_STATE_INCONSISTENCY\s+feature ghost/);
    expect(lines[1]).toMatch(/^\s+fix: /);
    expect(lines[2]).toMatch(/^WARNING\s+DRIFT_004_STALE_RUN_LEASE/);
    expect(r.stdout).toMatch(/1 critical · 1 warning · 0 info/);
    const j = runJson<{ ok: boolean; summary: object }>(["doctor", "--root", f.layout.root], { env: { AOP_NOW: NOW } });
    expect(j.json).toMatchObject({ ok: false, summary: { critical: 1, warning: 1, info: 0 } });
  });

  it("--strict: 2 with a critical (broken policy), 1 with warnings under strict_fails_on warning, 0 otherwise", () => {
    const critical = new DriftFixture().write("agentic/orchestrator/policy.yaml", "version: [1\n");
    expect(runCli(["doctor", "--strict", "--root", critical.layout.root]).code).toBe(2);
    const warning = new DriftFixture().lease("default", { lease_expires_at: "2020-01-01T00:00:00.000Z" });
    expect(runCli(["doctor", "--strict", "--root", warning.layout.root]).code).toBe(0);
    warning.write("agentic/orchestrator/policy.yaml", "diagnostics:\n  doctor:\n    strict_fails_on: warning\n");
    expect(runCli(["doctor", "--strict", "--root", warning.layout.root]).code).toBe(1);
    expect(runCli(["doctor", "--strict", "--root", new DriftFixture().layout.root]).code).toBe(0);
  });

  it("exits 3 when the doctor could not run", () => {
    const f = new DriftFixture().write(".aop/runtime/doctor", "a file where the report folder should be");
    const r = runCli(["doctor", "--root", f.layout.root]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/the doctor could not run/);
  });

  it("--only rejects an unknown family", () => {
    expect(runCli(["doctor", "--only", "nope"]).code).toBe(2);
  });

  it("reads each timeline once: DRIFT_006 and DRIFT_013 share one audit of it", async () => {
    // A gap (DRIFT_006) and an old-shape line (DRIFT_013, an extra inside the line) in one timeline.
    const f = new DriftFixture().timeline("r", [entry(0, { session_id: "s" }), entry(1, { session_id: "s", transport: "mcp" }), entry(3, { session_id: "s" })]);
    const timeline = f.layout.timelineFile("r");
    const open = vi.spyOn(fs, "openSync");
    try {
      const { report } = await runDoctor({ layout: f.layout, clock: fixedClock(NOW), env: {}, families: [{ name: "drift", applies: () => true, checks: [timelineCorruption, timelineOldLines] }] });
      expect(report.findings.map((x) => [x.id, x.message])).toEqual([
        ["DRIFT_006_TIMELINE_CORRUPTION", expect.stringMatching(/^run r: 1 sequence gap\(s\), first after sequence 1$/)],
        ["DRIFT_013_TIMELINE_OLD_LINES", expect.stringMatching(/^run r: 1 line in aop's older shape/)],
      ]);
      expect(open.mock.calls.filter(([file]) => file === timeline)).toHaveLength(1);
    } finally {
      open.mockRestore();
    }
  });
});
