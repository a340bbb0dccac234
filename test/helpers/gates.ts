// Workspaces with a feature, a gates.yaml and a policy, and a fast builder of long evidence chains.
import fs from "node:fs";
import { fixedClock, type Clock } from "../../src/core/clock.js";
import { policyDefaults } from "../../src/config/policy-loader.js";
import type { Policy } from "../../src/config/policy-types.js";
import type { ChainEntry } from "../../src/domains/evidence/chain-hash.js";
import { commitGateEvidence } from "../../src/domains/evidence/evidence-commit.js";
import { writeGateEvidence, type WrittenEvidence } from "../../src/domains/evidence/evidence-files.js";
import { createFeature } from "../../src/domains/features/feature-store.js";
import { sha256Of } from "../../src/core/hash.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { tempWorkspace, writeFile } from "./tmp.js";
import { until } from "./wait.js";

const NODE = process.execPath;

/** Policy with both evidence-integrity toggles set as given. */
export function policyWith(integrity: boolean | { tamper: boolean; enabled: boolean }): Policy {
  const policy = policyDefaults();
  const t = typeof integrity === "boolean" ? { tamper: integrity, enabled: integrity } : integrity;
  policy.innovation.tamper_evident_evidence = t.tamper;
  policy.observability.evidence_integrity.enabled = t.enabled;
  return policy;
}

export const INTEGRITY_POLICY_YAML = "version: 1\ninnovation:\n  tamper_evident_evidence: true\nobservability:\n  evidence_integrity:\n    enabled: true\n";

export interface GateWorkspace {
  root: string;
  layout: WorkspaceLayout;
  clock: ReturnType<typeof fixedClock>;
}

/** A workspace holding `featureId`, the given gates.yaml (YAML text) and optionally a policy.yaml. */
export async function gateWorkspace(options: { gates?: string; policyYaml?: string; featureId?: string } = {}): Promise<GateWorkspace> {
  const root = tempWorkspace();
  const layout = new WorkspaceLayout(root);
  const clock = fixedClock("2026-03-01T10:00:00.000Z");
  if (options.gates !== undefined) writeFile(root, "agentic/orchestrator/gates.yaml", options.gates);
  if (options.policyYaml !== undefined) writeFile(root, "agentic/orchestrator/policy.yaml", options.policyYaml);
  await createFeature(layout, clock, { feature_id: options.featureId ?? "feat_a" });
  return { root, layout, clock };
}

/** gates.yaml text for one profile `default` with the given modes (steps as plain objects). */
export function gatesYaml(modes: Record<string, object[]>): string {
  return JSON.stringify({ version: 1, default_profile: "default", profiles: { default: { modes } } }, null, 2);
}

/** A step running an inline Node script (argv, no shell); an empty script just exits 0. */
export function nodeStep(name: string, script: string, extra: object = {}): object {
  return { name, cmd: [NODE, "-e", script === "" ? "0" : script], ...extra };
}

/** A step that writes its pid to `pidFile` and then runs until it is killed. */
export function hangingStep(name: string, pidFile: string): object {
  return nodeStep(name, `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`);
}

/** The pid a hanging step wrote, once it has started (20 s at most). */
export async function startedStepPid(pidFile: string): Promise<number> {
  await until("the step to start", () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8") !== "");
  return Number(fs.readFileSync(pidFile, "utf8"));
}

/** Replace the workspace's gates.yaml. */
export function setGates(ws: { root: string }, modes: Record<string, object[]>): void {
  writeFile(ws.root, "agentic/orchestrator/gates.yaml", gatesYaml(modes));
}

/**
 * Append `count` gate runs to a feature's chain through the store functions (evidence file with one step
 * log, then the locked commit), without spawning anything: fast enough for chains of thousands.
 */
export async function buildChain(
  layout: WorkspaceLayout,
  clock: Clock & { advance(ms: number): void },
  featureId: string,
  count: number,
  options: { mode?: string | ((i: number) => string); policy?: Policy; warn?: (message: string) => void } = {},
): Promise<(WrittenEvidence & { chain: ChainEntry | null })[]> {
  const policy = options.policy ?? policyWith(true);
  const out: (WrittenEvidence & { chain: ChainEntry | null })[] = [];
  for (let i = 0; i < count; i++) {
    clock.advance(1000);
    const mode = typeof options.mode === "function" ? options.mode(i) : options.mode ?? "full";
    const started = clock.now();
    const logFile = layout.stepLog(featureId, started, mode, "tests");
    const log = `run ${i}: all tests passed\n`;
    writeFile(layout.root, layout.relative(logFile), log);
    const at = new Date(started).toISOString();
    const written = writeGateEvidence(
      layout,
      {
        feature_id: featureId,
        mode,
        profile: "default",
        overall: "pass",
        started_at: at,
        step_results: [{ name: "tests", cmd: ["npm", "test"], exit_code: 0, timed_out: false, attempts: 1, skipped: false, skip_reason: null, started_at: at, finished_at: at, log_path: layout.relative(logFile), log_sha256: sha256Of(log) }],
      },
      started + 5,
      { durable: false },
    );
    const { chain } = await commitGateEvidence(layout, clock, policy, written, { recordState: false, durable: false, warn: options.warn });
    out.push({ ...written, chain });
  }
  return out;
}

export function chainLines(layout: WorkspaceLayout, featureId: string): string[] {
  return fs.readFileSync(layout.chainFile(featureId), "utf8").split("\n").filter((l) => l !== "");
}

export function writeChainLines(layout: WorkspaceLayout, featureId: string, lines: string[]): void {
  fs.writeFileSync(layout.chainFile(featureId), lines.map((l) => l + "\n").join(""));
}
