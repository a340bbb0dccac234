// The one doctor engine: runs checks in id order, each isolated, and builds the report. `aop doctor`
// runs every applicable family; the continuity doctor and the checkpoint doctor run their own family
// through runFamilyChecks and present the outcomes in their own formats. It reads files only;
// persisting the report is report-store's job.
import os from "node:os";
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import { loadPolicyTolerant } from "../../config/policy-loader.js";
import { loadPolicySnapshot } from "../../config/policy-snapshot.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { createDoctorContext, toFinding, type DoctorCheck, type DoctorContext, type DoctorFamily, type Finding, type FindingDraft } from "./check-types.js";
import { buildReport, type DoctorReport } from "./report.js";
import { compareText } from "../../core/compare-text.js";

const CHECK_FAILED_ID = "doctor_check_failed";

export interface ContextOptions {
  layout: WorkspaceLayout;
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  transcriptsDir?: string;
  /** Problems of the tool surface (catalog, handlers, schemas), for DRIFT_003. */
  selfCheck?: () => Promise<string[]>;
  /** See DoctorContext.searchUntil. */
  searchUntil?: number;
}

export interface DoctorOptions extends ContextOptions {
  /** Every family (the composition root lists them); `only` picks one by name. */
  families: readonly DoctorFamily[];
  only?: string;
  /** Told after each check (doctor.run's progress notifications over MCP). */
  onCheck?: (done: number, total: number, checkId: string) => void;
}

export interface CheckOutcome {
  check: DoctorCheck;
  findings: Finding[];
  /** What the check returned, in the order of `findings` (empty when it failed to run). */
  drafts: FindingDraft[];
  okMessage: string | null;
  /** The check threw: `findings` holds the one doctor_check_failed finding. */
  failed: boolean;
}

/**
 * A context for one workspace, with its policy loaded tolerantly (a broken policy is a finding, never a
 * crash), from the snapshot the kernel keeps: loadPolicyTolerant's result for these very texts.
 */
export async function doctorContext(options: ContextOptions): Promise<DoctorContext> {
  const { policy, problems } = await loadPolicySnapshot(options.layout);
  return createDoctorContext({
    layout: options.layout,
    clock: options.clock,
    policy,
    policyProblems: problems,
    env: options.env ?? process.env,
    homeDir: options.homeDir ?? os.homedir(),
    ...(options.transcriptsDir ? { transcriptsDir: options.transcriptsDir } : {}),
    ...(options.selfCheck ? { selfCheck: options.selfCheck } : {}),
    ...(options.searchUntil === undefined ? {} : { searchUntil: options.searchUntil }),
  });
}

/** The one finding for a check that threw: one broken check must not hide the others' findings. */
function checkFailedFinding(check: DoctorCheck, err: unknown): Finding {
  return {
    id: CHECK_FAILED_ID,
    severity: "warning",
    message: `check ${check.id} failed to run: ${err instanceof Error ? err.message : String(err)}`,
    remediation: "the other checks still ran; report this with the files the check reads so it can be fixed",
    refs: [check.id],
  };
}

/** Runs `checks` one after another in lexical id order over one context, each isolated from the others' failures. */
export async function runFamilyChecks(ctx: DoctorContext, checks: readonly DoctorCheck[], onCheck?: DoctorOptions["onCheck"]): Promise<CheckOutcome[]> {
  const ordered = [...checks].sort((a, b) => compareText(a.id, b.id));
  const outcomes: CheckOutcome[] = [];
  for (const check of ordered) {
    try {
      const result = await check.run(ctx);
      outcomes.push({ check, findings: result.findings.map((d) => toFinding(check, d)), drafts: result.findings, okMessage: result.findings.length === 0 ? (result.okMessage ?? null) : null, failed: false });
    } catch (err) {
      outcomes.push({ check, findings: [checkFailedFinding(check, err)], drafts: [], okMessage: null, failed: true });
    }
    onCheck?.(outcomes.length, ordered.length, check.id);
  }
  return outcomes;
}

export async function runChecks(options: DoctorOptions): Promise<{ outcomes: CheckOutcome[]; disabled: boolean; strictFailsOn: "critical" | "warning" }> {
  const ctx = await doctorContext(options);
  const strictFailsOn = ctx.policy.diagnostics.doctor.strict_fails_on;
  if (!ctx.policy.diagnostics.doctor.enabled) return { outcomes: [], disabled: true, strictFailsOn };
  const families = options.families.filter((f) => (options.only === undefined || f.name === options.only) && f.applies(ctx));
  return { outcomes: await runFamilyChecks(ctx, families.flatMap((f) => f.checks), options.onCheck), disabled: false, strictFailsOn };
}

/** The drift checks that read records a pull carries (timeline, evidence, features index, ledger); the rest read configuration or this machine. */
const RECORD_DRIFT_CHECKS = new Set(["DRIFT_006_TIMELINE_CORRUPTION", "DRIFT_007_EVIDENCE_CHAIN_INVALID", "DRIFT_008_INDEX_STATE_INCONSISTENCY", "DRIFT_009_IDEMPOTENCY_LEDGER", "DRIFT_013_TIMELINE_OLD_LINES"]);

/**
 * The checks that read records, over a pulled workspace's folder (docs/handoff.md): the local repository's
 * policy governs (a pull carries none), this machine's home is not consulted, and nothing is saved.
 */
export async function runRecordDoctor(options: { layout: WorkspaceLayout; local: WorkspaceLayout; clock: Clock; families: readonly DoctorFamily[]; only?: string }): Promise<{ report: DoctorReport; strictFailsOn: "critical" | "warning" }> {
  const { policy } = await loadPolicyTolerant(options.local); // not the snapshot: a pulled record's doctor writes nothing
  const ctx = createDoctorContext({ layout: options.layout, clock: options.clock, policy, policyProblems: [], env: {}, homeDir: options.layout.root });
  const families = options.families.filter((f) => (options.only === undefined || f.name === options.only) && f.applies(ctx));
  const checks = families.flatMap((f) => f.checks).filter((c) => !c.id.startsWith("DRIFT_") || RECORD_DRIFT_CHECKS.has(c.id));
  const outcomes = await runFamilyChecks(ctx, checks);
  return { report: buildReport(outcomes.flatMap((o) => o.findings), nowIso(options.clock)), strictFailsOn: policy.diagnostics.doctor.strict_fails_on };
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
