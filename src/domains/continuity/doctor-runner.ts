// The continuity doctor: runs the continuity family through the doctor engine over one or more
// workspaces and builds its own report (the `--json` shape of `aop continuity doctor`, documented in
// docs/continuity.md) with its own exit codes.
import fs from "node:fs";
import type { Clock } from "../../core/clock.js";
import { policyDefaults } from "../../config/policy-defaults.js";
import type { Policy } from "../../config/policy-types.js";
import { createDoctorContext, runFamilyChecks, SEVERITY_RANK, summarize, type DoctorCheck, type DoctorContext, type Finding } from "../doctor/index.js";
import { WorkspaceLayout } from "../../store/layout.js";

/** Findings about a workspace as a whole, raised by the doctor command rather than by a check. */
export const WORKSPACE_MISSING_ID = "CONT_WORKSPACE_MISSING";
const OPENCLAW_CONFIG_INVALID_ID = "CONT_OPENCLAW_CONFIG_INVALID";

export type ExitCode = 0 | 1 | 2;

export interface DoctorTarget {
  root: string;
  agentId?: string | null;
  /** Transcripts folder for this workspace (an agent's own sessions, or `--transcripts`). */
  transcriptsDir?: string | undefined;
  /** How the workspace was named, for the missing-workspace message (e.g. `agents.list[1].workspace`). */
  origin?: string;
}

export interface Summary {
  critical: number;
  warning: number;
  info: number;
}

interface PassedCheck {
  id: string;
  message: string;
}

export interface WorkspaceReport {
  workspace: string;
  agent_id: string | null;
  exit_code: ExitCode;
  summary: Summary;
  findings: Finding[];
  passed: PassedCheck[];
}

export interface SkippedWorkspace {
  workspace: string;
  agent_id: string | null;
  reason: string;
}

export interface ContinuityReport {
  /** True when the exit code is 0: info findings alone are healthy. */
  ok: boolean;
  exit_code: ExitCode;
  summary: Summary;
  /** Findings that belong to no single workspace (an unreadable openclaw.json). */
  problems: Finding[];
  workspaces: WorkspaceReport[];
  /** Derived OpenClaw workspaces that do not exist (never configured, never created): not checked. */
  skipped: SkippedWorkspace[];
}

export interface RunnerEnvironment {
  clock: Clock;
  env: NodeJS.ProcessEnv;
  homeDir: string;
  checks: readonly DoctorCheck[];
  /** Shared by every workspace of the run: a transcripts folder is scanned once, not per workspace. */
  memo?: DoctorContext["memo"];
}

export function createSharedMemo(): DoctorContext["memo"] {
  const values = new Map<string, unknown>();
  return <T>(key: string, compute: () => T): T => {
    if (!values.has(key)) values.set(key, compute());
    return values.get(key) as T;
  };
}

export async function checkWorkspace(target: DoctorTarget, run: RunnerEnvironment): Promise<WorkspaceReport> {
  const agentId = target.agentId ?? null;
  const missing = workspaceProblem(target.root);
  if (missing) {
    const finding: Finding = {
      id: WORKSPACE_MISSING_ID,
      severity: "critical",
      message: `workspace ${missing}: ${target.root}${target.origin ? ` (from ${target.origin})` : ""}`,
      remediation: "Create the workspace, or correct the path (the --workspace argument or the OpenClaw config entry).",
      refs: [target.root],
    };
    return workspaceReport(target.root, agentId, [finding], []);
  }
  const ctx = doctorContext(target, run);
  const outcomes = await runFamilyChecks(ctx, run.checks);
  const findings = outcomes.flatMap((o) => o.findings);
  const passed: PassedCheck[] = outcomes.flatMap((o) => (o.okMessage ? [{ id: o.check.id, message: o.okMessage }] : []));
  return workspaceReport(ctx.layout.root, agentId, findings, passed);
}

function doctorContext(target: DoctorTarget, run: RunnerEnvironment): DoctorContext {
  let policy: Policy | undefined;
  const ctx = createDoctorContext({
    layout: new WorkspaceLayout(target.root),
    clock: run.clock,
    // The continuity checks never read the policy: it is loaded only if something asks for it.
    policy: undefined as unknown as Policy,
    policyProblems: [],
    env: run.env,
    homeDir: run.homeDir,
    ...(target.transcriptsDir === undefined ? {} : { transcriptsDir: target.transcriptsDir }),
  });
  Object.defineProperty(ctx, "policy", { enumerable: true, get: () => (policy ??= policyDefaults()) });
  if (run.memo) ctx.memo = run.memo;
  return ctx;
}

function workspaceProblem(root: string): string | undefined {
  try {
    return fs.statSync(root).isDirectory() ? undefined : "is not a directory";
  } catch {
    return "does not exist";
  }
}

function workspaceReport(workspace: string, agentId: string | null, findings: Finding[], passed: PassedCheck[]): WorkspaceReport {
  const summary = summarize(findings);
  return { workspace, agent_id: agentId, exit_code: exitCodeFor(summary), summary, findings, passed };
}

/** 2 with any critical, 1 with any warning, else 0: info and OK alone are healthy (docs/continuity.md). */
export function exitCodeFor(summary: Summary): ExitCode {
  if (summary.critical > 0) return 2;
  if (summary.warning > 0) return 1;
  return 0;
}

export function buildReport(workspaces: WorkspaceReport[], problems: Finding[], skipped: SkippedWorkspace[]): ContinuityReport {
  const summary = summarize([...problems, ...workspaces.flatMap((w) => w.findings)]);
  const exit = exitCodeFor(summary);
  return { ok: exit === 0, exit_code: exit, summary, problems, workspaces, skipped };
}

/** Findings worst first; equal severities keep their (check id) order. */
export function worstFirst(findings: readonly Finding[]): Finding[] {
  return findings.map((f, i) => ({ f, i })).sort((a, b) => SEVERITY_RANK[a.f.severity] - SEVERITY_RANK[b.f.severity] || a.i - b.i).map(({ f }) => f);
}

export function configProblemFinding(configFile: string, problems: readonly string[]): Finding {
  return {
    id: OPENCLAW_CONFIG_INVALID_ID,
    severity: "critical",
    message: `${configFile}: ${problems.join("; ")}`,
    remediation: "Fix openclaw.json (it is JSON5: comments and trailing commas are fine), or name the workspaces with --workspace instead of --all-agents.",
    refs: [configFile],
  };
}
