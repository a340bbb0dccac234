import { describe, expect, it } from "vitest";
import { doctorHealth, evidenceMark, gateMark } from "../../../src/domains/report/health.js";
import type { ChainView, DoctorFindingView, EvidenceTrustView } from "../../../src/domains/report/report-types.js";

const finding = (severity: string): DoctorFindingView => ({ id: `X_${severity}`, severity, message: "m", remediation: "", refs: [] });
const chain = (status: ChainView["status"]): ChainView => ({
  status, entry_count: 2, head_hash: null, first_failure_sequence: null, failure_code: null, failure_reason: null, artifact: null, expected_hash: null, actual_hash: null,
});
const CHAINED: EvidenceTrustView = { status: "chained", chain_sequence: 1 };
const MODIFIED: EvidenceTrustView = { status: "modified", chain_sequence: 0, expected_hash: "sha256:aa", actual_hash: "sha256:bb" };
const NOT_CHAINED: EvidenceTrustView = { status: "not_chained" };

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

describe("a gate's result as state.md recorded it", () => {
  it.each([
    ["fail is red, whatever its evidence", "fail", CHAINED, "valid", true, "err"],
    ["fail with its evidence edited is still red", "fail", MODIFIED, "invalid", true, "err"],
    ["no result recorded is red", "", null, "valid", true, "err"],
    ["pass, chained, chain valid: green", "pass", CHAINED, "valid", true, "ok"],
    ["pass whose evidence was edited: amber", "pass", MODIFIED, "invalid", true, "warn"],
    ["pass with intact evidence in a chain that does not verify: amber", "pass", CHAINED, "invalid", true, "warn"],
    ["pass in a chain that cannot be verified: amber", "pass", CHAINED, "unverifiable", true, "warn"],
    ["pass not chained while integrity is on: amber", "pass", NOT_CHAINED, "valid", true, "warn"],
    ["pass naming no evidence while integrity is on: amber", "pass", null, "none", true, "warn"],
    ["pass with integrity off in policy: green (nothing is chained)", "pass", NOT_CHAINED, "none", false, "ok"],
  ] as const)("%s", (_name, result, trust, chainStatus, integrity, tone) => {
    const mark = gateMark({ result, evidence_trust: trust }, chain(chainStatus), integrity);
    expect(mark.tone).toBe(tone);
    expect(mark.label).toBe(result || "?");
  });
});

describe("an evidence file against its chain entry", () => {
  it("modified: red, saying what the entry recorded and what the file is now, and that it is not the verdict", () => {
    const mark = evidenceMark(MODIFIED, chain("invalid"), true);
    expect([mark.tone, mark.label]).toEqual(["err", "modified after it was chained"]);
    expect(mark.why).toMatch(/chain entry 0 recorded sha256:aa; the file now hashes to sha256:bb\. Its contents are not the verdict/);
    expect(evidenceMark({ ...MODIFIED, actual_hash: null }, chain("invalid"), true).why).toMatch(/the file is missing or cannot be read/);
  });

  it("chained: green only in a chain that verifies", () => {
    expect(evidenceMark(CHAINED, chain("valid"), true)).toMatchObject({ tone: "ok", label: "chained" });
    expect(evidenceMark(CHAINED, chain("invalid"), true)).toMatchObject({ tone: "warn", why: expect.stringMatching(/chain does not verify/) });
    expect(evidenceMark(CHAINED, null, true)).toMatchObject({ tone: "info", label: "chained" });
  });

  it("not chained: amber when integrity is on, grey when policy turned it off", () => {
    expect(evidenceMark(NOT_CHAINED, chain("valid"), true)).toMatchObject({ tone: "warn", label: "not chained" });
    expect(evidenceMark(NOT_CHAINED, chain("none"), false)).toMatchObject({ tone: "info", label: "not chained" });
  });
});
