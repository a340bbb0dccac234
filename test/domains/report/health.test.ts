import { describe, expect, it } from "vitest";
import { doctorHealth } from "../../../src/domains/report/health.js";
import type { DoctorFindingView } from "../../../src/domains/report/report-types.js";

const finding = (severity: string): DoctorFindingView => ({ id: `X_${severity}`, severity, message: "m", remediation: "", refs: [] });

describe("the doctor's report at a glance: a warning is never healthy", () => {
  it.each([
    ["no findings", true, [], "ok", "ok"],
    ["info only", true, ["info", "info"], "ok", "ok"],
    ["one warning (the report's ok is true)", true, ["warning", "info"], "warn", "1 warning"],
    ["two warnings", true, ["warning", "warning"], "warn", "2 warnings"],
    ["a severity the page does not know", true, ["notice"], "warn", "1 warning"],
    ["a critical finding", false, ["critical", "warning"], "err", "not ok"],
    ["a report that says not ok without findings", false, [], "err", "not ok"],
  ])("%s", (_name, ok, severities, tone, label) => {
    const mark = doctorHealth({ ok, findings: severities.map(finding) });
    expect([mark.tone, mark.label]).toEqual([tone, label]);
    expect(mark.why === null).toBe(tone === "ok");
  });
});
