// The doctor engine: loads config tolerantly, runs the applicable checks in id order, each isolated,
// and builds the report. It reads files only; persisting the report is report-store's job.
import fs from "node:fs";
import os from "node:os";
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import { loadPolicyTolerant } from "../../config/policy-loader.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { createDoctorContext, toFinding, type CheckFamily, type DoctorCheck, type DoctorContext, type Finding } from "./check-types.js";
import { buildReport, type DoctorReport } from "./report.js";

export interface DoctorOptions {
  layout: WorkspaceLayout;
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  transcriptsDir?: string;
  only?: CheckFamily;
  /** The checks to run (the composition root gathers every family's). */
  checks: readonly DoctorCheck[];
  /** Problems of the tool surface (catalog, handlers, schemas), for DRIFT_003. */
  selfCheck?: () => Promise<string[]>;
}

export interface CheckOutcome {
  check: DoctorCheck;
  findings: Finding[];
  okMessage: string | null;
}

/** Whether a family applies to this workspace (DESIGN §6: continuity needs memory/, checkpoints .checkpoints/). */
function familyApplies(family: CheckFamily, ctx: DoctorContext): boolean {
  if (family === "continuity") return fs.existsSync(ctx.layout.memoryDir);
  if (family === "checkpoint") return fs.existsSync(ctx.layout.checkpointsDir);
  return true;
}

export async function runChecks(options: DoctorOptions): Promise<{ outcomes: CheckOutcome[]; disabled: boolean; strictFailsOn: "critical" | "warning" }> {
  const { policy, problems } = await loadPolicyTolerant(options.layout);
  const ctx = createDoctorContext({
    layout: options.layout,
    clock: options.clock,
    policy,
    policyProblems: problems,
    env: options.env ?? process.env,
    homeDir: options.homeDir ?? os.homedir(),
    ...(options.transcriptsDir ? { transcriptsDir: options.transcriptsDir } : {}),
    ...(options.selfCheck ? { selfCheck: options.selfCheck } : {}),
  });
  const strictFailsOn = policy.diagnostics.doctor.strict_fails_on;
  if (!policy.diagnostics.doctor.enabled) return { outcomes: [], disabled: true, strictFailsOn };
  const checks = options.checks.filter((c) => (options.only ? c.family === options.only : true)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const outcomes: CheckOutcome[] = [];
  for (const check of checks) {
    if (!familyApplies(check.family, ctx)) continue;
    try {
      const result = await check.run(ctx);
      outcomes.push({ check, findings: result.findings.map((d) => toFinding(check, d)), okMessage: result.findings.length === 0 ? (result.okMessage ?? null) : null });
    } catch (err) {
      // One broken check must not hide the others' findings.
      outcomes.push({
        check,
        findings: [{ id: "doctor_check_failed", severity: "warning", message: `check ${check.id} failed to run: ${err instanceof Error ? err.message : String(err)}`, remediation: "run with AOP_DEBUG=1 and report it; the other checks still ran", refs: [check.id] }],
        okMessage: null,
      });
    }
  }
  return { outcomes, disabled: false, strictFailsOn };
}

export async function runDoctor(options: DoctorOptions): Promise<{ report: DoctorReport; strictFailsOn: "critical" | "warning" }> {
  const { outcomes, disabled, strictFailsOn } = await runChecks(options);
  const generatedAt = nowIso(options.clock);
  if (disabled) {
    const finding: Finding = { id: "doctor_disabled", severity: "info", message: "the doctor is disabled by policy (diagnostics.doctor.enabled: false)", remediation: "set diagnostics.doctor.enabled: true in policy.yaml to run the checks", refs: ["agentic/orchestrator/policy.yaml"] };
    return { report: buildReport([finding], generatedAt), strictFailsOn };
  }
  return { report: buildReport(outcomes.flatMap((o) => o.findings), generatedAt), strictFailsOn };
}
