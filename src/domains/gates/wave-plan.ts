// How a mode's steps run: the wave plan and the decision to skip a step. Pure.
// Steps run in declared order; consecutive steps sharing a `parallel_group` form one wave and run together.
// A step with `depends_on` needs exactly those steps to pass; a step without it needs every step of every
// earlier wave to pass (so a plain sequence stops at its first failure).
import { AopError } from "../../core/errors.js";
import type { GateStep } from "../../config/gates-types.js";

export interface WavePlan {
  waves: GateStep[][];
  /** Step name → index of its wave. */
  waveOf: ReadonlyMap<string, number>;
}

export type StepOutcome = "pass" | "fail" | "skipped";

function invalid(message: string, step: string): AopError {
  return new AopError("gate_step_invalid", message, { details: { step }, hint: "fix the mode's steps in agentic/orchestrator/gates.yaml (`aop config check` lists every problem)" });
}

export function planWaves(steps: readonly GateStep[]): WavePlan {
  const waves: GateStep[][] = [];
  const waveOf = new Map<string, number>();
  let currentGroup: string | null = null;
  for (const step of steps) {
    if (waveOf.has(step.name)) throw invalid(`step name '${step.name}' is used twice in this mode`, step.name);
    for (const dep of step.depends_on ?? []) {
      if (!waveOf.has(dep)) throw invalid(`step '${step.name}' depends on '${dep}', which is not declared before it`, step.name);
    }
    const current = waves[waves.length - 1];
    const joins =
      current !== undefined &&
      step.parallel_group !== undefined &&
      step.parallel_group === currentGroup &&
      !(step.depends_on ?? []).some((dep) => current.some((s) => s.name === dep));
    if (joins) {
      current.push(step);
    } else {
      waves.push([step]);
      currentGroup = step.parallel_group ?? null;
    }
    waveOf.set(step.name, waves.length - 1);
  }
  return { waves, waveOf };
}

/** Why `step` must not run given the outcomes so far, or null when it may run. */
export function skipReason(step: GateStep, steps: readonly GateStep[], plan: WavePlan, outcomes: ReadonlyMap<string, StepOutcome>): string | null {
  if (step.depends_on && step.depends_on.length > 0) {
    for (const dep of step.depends_on) {
      const outcome = outcomes.get(dep);
      if (outcome === "fail") return `dependency '${dep}' failed`;
      if (outcome === "skipped") return `dependency '${dep}' was skipped`;
      if (outcome === undefined) return `dependency '${dep}' did not run`;
    }
    return null;
  }
  const wave = plan.waveOf.get(step.name)!;
  const earlier = steps.filter((s) => plan.waveOf.get(s.name)! < wave);
  const failed = earlier.find((s) => outcomes.get(s.name) === "fail");
  if (failed) return `an earlier step failed ('${failed.name}')`;
  const skipped = earlier.find((s) => outcomes.get(s.name) !== "pass");
  if (skipped) return `an earlier step did not pass ('${skipped.name}')`;
  return null;
}
