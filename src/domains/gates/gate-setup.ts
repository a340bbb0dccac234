// Choosing what a gate run executes and with what: profile and mode lookup, step working directories and
// environments. Pure apart from the realpath check that a working directory does not leave the workspace.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import type { GatesConfig, GateStep } from "../../config/gates-types.js";
import type { WorkspaceLayout } from "../../store/layout.js";

export interface ResolvedMode {
  profile: string;
  mode: string;
  steps: GateStep[];
}

/**
 * The profile and steps of a run. Without `profile`, the default is policy.yaml's
 * `gate_selection.default_profile` (`defaultProfile`, where upstream keeps it), else an older gates.yaml's
 * own `default_profile`, else the only profile, else one named `default`.
 */
export function resolveGateMode(gates: GatesConfig, request: { profile?: string; mode: string; defaultProfile?: string }): ResolvedMode {
  const names = Object.keys(gates.profiles);
  let profile = request.profile;
  if (profile === undefined) {
    profile = request.defaultProfile ?? gates.default_profile ?? (names.length === 1 ? names[0] : names.includes("default") ? "default" : undefined);
    if (profile === undefined) {
      throw new AopError("gate_profile_not_found", `gates.yaml has ${names.length} profiles (${names.join(", ")}) and no default profile`, {
        hint: "pass --profile <name>, or set gate_selection.default_profile in agentic/orchestrator/policy.yaml",
      });
    }
  }
  const chosen = gates.profiles[profile];
  if (!chosen) {
    throw new AopError("gate_profile_not_found", `gates.yaml has no profile '${profile}' (profiles: ${names.join(", ")})`, { details: { profile, profiles: names } });
  }
  const steps = chosen.modes[request.mode];
  if (!steps) {
    const modes = Object.keys(chosen.modes);
    throw new AopError("gate_mode_not_found", `profile '${profile}' has no mode '${request.mode}' (modes: ${modes.join(", ")})`, { details: { profile, mode: request.mode, modes } });
  }
  return { profile, mode: request.mode, steps };
}

/** Each step's absolute working directory; a directory outside the workspace refuses the whole run. */
export function resolveStepCwds(layout: WorkspaceLayout, steps: readonly GateStep[]): Map<string, string> {
  const realRoot = fs.realpathSync(layout.root);
  const out = new Map<string, string>();
  for (const step of steps) {
    const cwd = layout.resolveInside(step.cwd ?? ".");
    let escapes = cwd === null;
    if (cwd !== null && fs.existsSync(cwd)) {
      // A symlink inside the workspace may point outside it.
      const rel = path.relative(realRoot, fs.realpathSync(cwd));
      escapes = rel.startsWith("..") || path.isAbsolute(rel);
    }
    if (escapes || cwd === null) {
      throw new AopError("gate_step_invalid", `step '${step.name}': cwd '${step.cwd}' is outside the workspace`, {
        details: { step: step.name, cwd: step.cwd },
        hint: "a step's cwd is relative to the workspace root and must stay inside it",
      });
    }
    out.set(step.name, cwd);
  }
  return out;
}

/** The variables a step sees: the allow-listed ones from our environment, then the step's own. */
export function stepEnvironment(allowlist: readonly string[], processEnv: NodeJS.ProcessEnv, stepEnv: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of allowlist) {
    const value = processEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...stepEnv };
}
