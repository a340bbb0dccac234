// `gates.run` as a service shared by the tool handler and the CLI: run a mode of gates.yaml for a feature,
// write its evidence, chain it (when integrity is on), refresh latest-<mode>.json and the feature state.
import type { Clock } from "../../core/clock.js";
import { validateId } from "../../core/ids.js";
import { loadGates } from "../../config/gates-loader.js";
import type { Policy } from "../../config/policy-types.js";
import { gateSigner, sealGateRun, type GateSeal } from "../attest/index.js";
import { commitGateEvidence, writeGateEvidence } from "../evidence/index.js";
import type { CommitResult, GateEvidence, WrittenEvidence } from "../evidence/index.js";
import { requireState } from "../features/index.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { runGateSteps, type GateProgressEvent } from "./gate-runner.js";
import { resolveGateMode, resolveStepCwds } from "./gate-setup.js";

export interface RunGateInput {
  feature_id: string;
  mode: string;
  profile?: string;
}

/** The evidence as written, plus where it went and how it was published. */
export interface GateRunReport extends GateEvidence {
  evidence_path: string;
  latest_path: string;
  /** False when a newer run of the mode had already been recorded (concurrent runs). */
  is_latest: boolean;
  chain: { sequence: number; chain_hash: string } | null;
  /** The signed attestation written beside the evidence (policy evidence_integrity.attest), or null. */
  attestation: GateSeal["attestation"];
  /** The anchor signed after the run (policy evidence_integrity.anchor_after_gate), or null. */
  anchor: GateSeal["anchor"];
}

export interface RunGateOptions {
  onProgress?: (event: GateProgressEvent) => void;
  warn?: (message: string) => void;
  /** Grace between SIGTERM and SIGKILL on a timeout (default 2 s). */
  killGraceMs?: number;
  /** Where allow-listed variables are taken from (default: this process's environment). */
  processEnv?: NodeJS.ProcessEnv;
  /** Interrupts the run: its steps are killed and nothing is recorded (operation_cancelled). */
  signal?: AbortSignal;
}

const DEFAULT_KILL_GRACE_MS = 2_000;

export async function runGate(layout: WorkspaceLayout, clock: Clock, policy: Policy, input: RunGateInput, options: RunGateOptions = {}): Promise<GateRunReport> {
  const featureId = validateId("feature_id", input.feature_id);
  const mode = validateId("mode", input.mode);
  if (input.profile !== undefined) validateId("profile", input.profile);
  await requireState(layout, featureId);
  const resolved = resolveGateMode(await loadGates(layout), { profile: input.profile, mode, defaultProfile: policy.gate_selection?.default_profile });
  // Before any step runs: a run that must be signed and cannot be fails here, having done nothing.
  const signer = gateSigner(layout, policy);
  const outcome = await runGateSteps({
    layout,
    clock,
    featureId,
    mode,
    steps: resolved.steps,
    cwds: resolveStepCwds(layout, resolved.steps),
    envAllowlist: policy.execution.env_allowlist,
    processEnv: options.processEnv ?? process.env,
    defaultTimeoutSeconds: policy.execution.default_step_timeout_seconds,
    killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    onProgress: options.onProgress,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const written = writeGateEvidence(
    layout,
    { feature_id: featureId, mode, profile: resolved.profile, overall: outcome.overall, started_at: outcome.started_at, step_results: outcome.step_results },
    Math.max(clock.now(), outcome.startedMs),
  );
  const commit = await commitGateEvidence(layout, clock, policy, written, { warn: options.warn });
  const seal = await sealGateRun(layout, clock, policy, signer, written, commit.chain, options.warn);
  return gateRunReport(layout, written, commit, seal);
}

/** What gates.run returns for evidence that was written, published and (by policy) signed. */
export function gateRunReport(layout: WorkspaceLayout, written: WrittenEvidence, commit: CommitResult, seal: GateSeal): GateRunReport {
  const { feature_id, mode, profile, overall, started_at, finished_at, step_results } = written.evidence;
  return {
    feature_id,
    mode,
    profile,
    overall,
    started_at,
    finished_at,
    evidence_path: written.rel_path,
    latest_path: layout.relative(layout.latestEvidence(feature_id, mode)),
    is_latest: commit.is_latest,
    chain: commit.chain ? { sequence: commit.chain.sequence, chain_hash: commit.chain.chain_hash } : null,
    attestation: seal.attestation,
    anchor: seal.anchor,
    step_results,
  };
}
