// The gate evidence file (docs/evidence.md) as written by `gates.run`, one file per run.

export interface StepResult {
  name: string;
  cmd: string[];
  /** null when the step did not run, or ended by a signal (a timeout). */
  exit_code: number | null;
  timed_out: boolean;
  attempts: number;
  skipped: boolean;
  /** Why a skipped step did not run (a refinement, see docs/evidence.md); null otherwise. */
  skip_reason: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** Workspace-relative; null for a skipped step, which has no output. */
  log_path: string | null;
  log_sha256: string | null;
}

export interface GateEvidence {
  feature_id: string;
  mode: string;
  profile: string;
  overall: "pass" | "fail";
  started_at: string;
  finished_at: string;
  step_results: StepResult[];
}

/** The one rule for a step's result: skipped, passed (exit 0 within its time), or failed. Pure. */
export function stepOutcome(step: Pick<StepResult, "skipped" | "timed_out" | "exit_code">): "pass" | "fail" | "skipped" {
  if (step.skipped) return "skipped";
  return step.exit_code === 0 && !step.timed_out ? "pass" : "fail";
}

/** The exact bytes written to `gate-<mode>-<epoch_ms>.json`. */
export function serializeEvidence(evidence: GateEvidence): string {
  return JSON.stringify(evidence, null, 2) + "\n";
}
