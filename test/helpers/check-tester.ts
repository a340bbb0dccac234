// The one doctor-check tester (the role ESLint's RuleTester plays for its rules, STYLE.md): a check's
// test is a table of `valid` workspaces, where it finds nothing and says its OK line (or stays silent),
// and `invalid` ones, each with every finding the check must give, in order. Every finding's code (the
// id it is reported under) and severity are asserted: a code defaults to the check's own id — a check
// that throws is reported as doctor_check_failed and fails its case — and a severity to the check's own.
// Messages are matched by pattern, so their prose stays free to improve. Checks run as the engine runs
// them, over the workspace's policy (loaded tolerantly), a fixed clock and no environment.
import { describe, expect, it } from "vitest";
import { toolSurfaceProblems } from "../../src/app/handler-registry.js";
import { loadPolicyTolerant } from "../../src/config/policy-loader.js";
import { fixedClock } from "../../src/core/clock.js";
import { createDoctorContext, runFamilyChecks, type DoctorCheck, type Finding } from "../../src/domains/doctor/index.js";
import type { WorkspaceLayout } from "../../src/store/layout.js";

/** A workspace a check runs on. */
export interface CheckWorkspace {
  layout: WorkspaceLayout;
  /** The home folder the check sees (default: the workspace root), so no real ~/.openclaw or ~/.claude is read. */
  home?: string;
  /** `--transcripts DIR` of the continuity checks. */
  transcriptsDir?: string;
}

/** What one run of a check gave: its findings as the report holds them, and its OK line (null when it stays silent or found something). */
export interface CheckRun {
  findings: Finding[];
  okMessage: string | null;
}

/** Runs one check on a workspace the way the engine does, with the clock at `now`. */
export async function runCheck(check: DoctorCheck, ws: CheckWorkspace, now: string | number): Promise<CheckRun> {
  const { policy, problems } = await loadPolicyTolerant(ws.layout);
  const ctx = createDoctorContext({
    layout: ws.layout,
    clock: fixedClock(now),
    policy,
    policyProblems: problems,
    env: {},
    homeDir: ws.home ?? ws.layout.root,
    selfCheck: toolSurfaceProblems,
    ...(ws.transcriptsDir === undefined ? {} : { transcriptsDir: ws.transcriptsDir }),
  });
  const [outcome] = await runFamilyChecks(ctx, [check]);
  return { findings: outcome!.findings, okMessage: outcome!.okMessage };
}

/** A finding an invalid case must give. */
interface ExpectedFinding {
  /** The id it is reported under; default: the check's id. */
  code?: string;
  /** Default: the check's own severity. */
  severity?: Finding["severity"];
  /** A pattern, or the whole message. */
  message: RegExp | string;
  remediation?: RegExp | string;
  refs?: readonly (RegExp | string)[];
}

interface ValidCase<S> {
  name: string;
  workspace: S;
  /** The OK line, whole (a string, or a pattern anchored at both ends); null when the check stays silent. */
  ok: RegExp | string | null;
}

interface InvalidCase<S, W extends CheckWorkspace = CheckWorkspace> {
  name: string;
  workspace: S;
  /** The findings, in order; a function of the built workspace where they name its files. */
  findings: readonly ExpectedFinding[] | ((ws: W) => readonly ExpectedFinding[]);
}

export interface CheckCases<S, W extends CheckWorkspace = CheckWorkspace> {
  /** The instant the check runs at. */
  now: string | number;
  /** Builds a case's workspace from its description. */
  build(spec: S): W | Promise<W>;
  valid: readonly ValidCase<S>[];
  invalid: readonly InvalidCase<S, W>[];
  /** Asserted of every finding of every invalid case, beyond its code, severity and message (a rule of the check's family). */
  everyFinding?(finding: Finding): void;
  /** What the check declares: its severity, the form of its id, what its remediation names. */
  declared?: { severity?: Finding["severity"]; id?: RegExp; remediation?: RegExp };
}

const text = (expected: RegExp | string) => (typeof expected === "string" ? expected : expect.stringMatching(expected));

/** What a finding is compared on: code, severity and message always; remediation and refs where the case names them. */
function expectedShape(check: DoctorCheck, e: ExpectedFinding): Record<string, unknown> {
  return {
    code: e.code ?? check.id,
    severity: e.severity ?? check.severity,
    message: text(e.message),
    ...(e.remediation === undefined ? {} : { remediation: text(e.remediation) }),
    ...(e.refs === undefined ? {} : { refs: e.refs.map(text) }),
  };
}

function actualShape(f: Finding, e: ExpectedFinding | undefined): Record<string, unknown> {
  return {
    code: f.id,
    severity: f.severity,
    message: f.message,
    ...(e?.remediation === undefined ? {} : { remediation: f.remediation }),
    ...(e?.refs === undefined ? {} : { refs: f.refs }),
  };
}

/** The specification of one check: its valid and invalid workspaces, each case a test. */
export function testCheck<S, W extends CheckWorkspace = CheckWorkspace>(check: DoctorCheck, cases: CheckCases<S, W>): void {
  describe(check.id, () => {
    it("has valid and invalid cases, and declares what its family asks", () => {
      expect(cases.valid.length, "valid cases").toBeGreaterThan(0);
      expect(cases.invalid.length, "invalid cases").toBeGreaterThan(0);
      const { severity, id, remediation } = cases.declared ?? {};
      if (severity !== undefined) expect(check.severity).toBe(severity);
      if (id !== undefined) expect(check.id).toMatch(id);
      if (remediation !== undefined) expect(check.remediation).toMatch(remediation);
    });

    it.each(cases.valid.map((c) => [c.name, c] as const))("valid: %s", async (_name, c) => {
      const run = await runCheck(check, await cases.build(c.workspace), cases.now);
      expect(run.findings.map((f) => actualShape(f, undefined))).toEqual([]);
      if (c.ok === null) expect(run.okMessage).toBeNull();
      else if (typeof c.ok === "string") expect(run.okMessage).toBe(c.ok);
      else {
        expect(c.ok.source.startsWith("^") && c.ok.source.endsWith("$"), `'${c.name}': anchor the OK pattern`).toBe(true);
        expect(run.okMessage).toMatch(c.ok);
      }
    });

    it.each(cases.invalid.map((c) => [c.name, c] as const))("invalid: %s", async (_name, c) => {
      const ws = await cases.build(c.workspace);
      const expected = typeof c.findings === "function" ? c.findings(ws) : c.findings;
      const run = await runCheck(check, ws, cases.now);
      expect(run.findings.map((f, i) => actualShape(f, expected[i]))).toEqual(expected.map((e) => expectedShape(check, e)));
      for (const finding of run.findings) {
        // Every finding says what to do about it.
        expect(finding.remediation.length, `${finding.id}: remediation`).toBeGreaterThan(20);
        cases.everyFinding?.(finding);
      }
    });
  });
}
