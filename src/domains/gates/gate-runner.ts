// Runs a mode's steps wave by wave and reports each step's result (docs/evidence.md step_results).
import type { Clock } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import { isoUtc, nowIso } from "../../core/clock.js";
import type { GateStep } from "../../config/gates-types.js";
import { stepOutcome, type StepResult } from "../evidence/index.js";
import { sha256FileOrNull } from "../../store/file-hash.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { releaseLog, reserveRunLogs } from "./run-logs.js";
import { runStepProcess } from "./step-process.js";
import { stepEnvironment } from "./gate-setup.js";
import { planWaves, skipReason, type StepOutcome } from "./wave-plan.js";

export type GateProgressEvent =
  | { type: "run-start"; steps: number; waves: number }
  | { type: "step-start"; step: string; wave: number }
  | { type: "step-finish"; step: string; result: StepResult };

export interface GateRunRequest {
  layout: WorkspaceLayout;
  clock: Clock;
  featureId: string;
  mode: string;
  steps: readonly GateStep[];
  /** Step name → absolute working directory (already checked to be inside the workspace). */
  cwds: ReadonlyMap<string, string>;
  envAllowlist: readonly string[];
  processEnv: NodeJS.ProcessEnv;
  defaultTimeoutSeconds: number;
  killGraceMs: number;
  onProgress?: (event: GateProgressEvent) => void;
  /** Aborted when the run is interrupted (client gone, SIGTERM, SIGINT): running steps are killed. */
  signal?: AbortSignal;
}

export interface GateRunOutcome {
  overall: "pass" | "fail";
  started_at: string;
  startedMs: number;
  step_results: StepResult[];
}

function skippedResult(step: GateStep, reason: string): StepResult {
  return { name: step.name, cmd: [...step.cmd], exit_code: null, timed_out: false, attempts: 0, skipped: true, skip_reason: reason, started_at: null, finished_at: null, log_path: null, log_sha256: null };
}

export async function runGateSteps(request: GateRunRequest): Promise<GateRunOutcome> {
  const { layout, clock, steps } = request;
  const plan = planWaves(steps);
  const startedMs = clock.now();
  const logs = reserveRunLogs(layout, request.featureId, request.mode, steps.map((s) => s.name), startedMs);
  const outcomes = new Map<string, StepOutcome>();
  const results = new Map<string, StepResult>();
  let killed = 0;
  request.onProgress?.({ type: "run-start", steps: steps.length, waves: plan.waves.length });

  const runOne = async (step: GateStep, wave: number): Promise<void> => {
    const logFile = logs.files.get(step.name)!;
    const started_at = nowIso(clock);
    request.onProgress?.({ type: "step-start", step: step.name, wave });
    const run = await runStepProcess({
      cmd: step.cmd,
      cwd: request.cwds.get(step.name)!,
      env: stepEnvironment(request.envAllowlist, request.processEnv, step.env),
      logFile,
      timeoutMs: (step.timeout_seconds ?? request.defaultTimeoutSeconds) * 1000,
      killGraceMs: request.killGraceMs,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    if (run.interrupted) killed += 1;
    const result: StepResult = {
      name: step.name,
      cmd: [...step.cmd],
      exit_code: run.exit_code,
      timed_out: run.timed_out,
      attempts: 1,
      skipped: false,
      skip_reason: null,
      started_at,
      finished_at: nowIso(clock),
      log_path: layout.relative(logFile),
      log_sha256: sha256FileOrNull(logFile),
    };
    outcomes.set(step.name, stepOutcome(result));
    results.set(step.name, result);
    request.onProgress?.({ type: "step-finish", step: step.name, result });
  };

  for (const [wave, members] of plan.waves.entries()) {
    if (request.signal?.aborted) break;
    const toRun: GateStep[] = [];
    for (const step of members) {
      const reason = skipReason(step, steps, plan, outcomes);
      if (reason === null) {
        toRun.push(step);
        continue;
      }
      releaseLog(logs.files.get(step.name)!);
      const result = skippedResult(step, reason);
      outcomes.set(step.name, "skipped");
      results.set(step.name, result);
      request.onProgress?.({ type: "step-finish", step: step.name, result });
    }
    await Promise.all(toRun.map((step) => runOne(step, wave)));
  }
  if (request.signal?.aborted) throw interruptedRun(request, killed);
  const overall = steps.every((s) => outcomes.get(s.name) === "pass") ? "pass" : "fail";
  return { overall, started_at: isoUtc(startedMs), startedMs, step_results: steps.map((s) => results.get(s.name)!) };
}

/** Why an interrupted run records nothing (docs/evidence.md, "Interrupted runs"). */
function interruptedRun(request: GateRunRequest, killed: number): AopError {
  const reason = describeInterruption(request.signal?.reason);
  return new AopError("operation_cancelled", `gates.run for ${request.featureId} (${request.mode}) was interrupted (${reason}): ${killed} running step${killed === 1 ? " was" : "s were"} killed; no evidence, chain entry or feature state was recorded`, {
    details: { feature_id: request.featureId, mode: request.mode, reason, steps_killed: killed, recorded: false },
    hint: "run it again (the same operation_id runs it again, since nothing was recorded)",
  });
}

function describeInterruption(reason: unknown): string {
  if (reason === "client_gone") return "the MCP client went away";
  if (reason === "client_cancelled") return "the MCP client cancelled the call";
  if (reason === "SIGTERM" || reason === "SIGINT") return reason;
  return "aborted";
}
