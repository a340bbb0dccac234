// Collects the session orientation's sources from the workspace: checkpoints, CURRENT_STATE.md and
// the doctor's critical checks (only those: the hook has to answer within a second).
import os from "node:os";
import { monotonicMs, type Clock } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { loadPolicySnapshot } from "../../config/policy-snapshot.js";
import { buildResumeBlock, openCheckpointsByUrgency, scanFolder } from "../checkpoints/index.js";
import { readStateSummary } from "../continuity/index.js";
import { runChecks, type DoctorFamily } from "../doctor/index.js";
import type { ContextSources } from "./session-context.js";

/**
 * How long the critical checks' searches may take: the hook answers within its watchdog (900 ms from its
 * start, a loaded machine's start-up included), so the search for private keys in a big .aop/ stops
 * here; `aop doctor` searches to its bounds.
 */
const CRITICAL_SEARCH_MS = 300;

async function criticalFindings(layout: WorkspaceLayout, clock: Clock, env: NodeJS.ProcessEnv, families: readonly DoctorFamily[]) {
  const onlyCritical = families.map((f) => ({ ...f, checks: f.checks.filter((c) => c.severity === "critical") }));
  const searchUntil = monotonicMs() + CRITICAL_SEARCH_MS;
  const { outcomes } = await runChecks({ layout, clock, env, homeDir: env.HOME ?? os.homedir(), families: onlyCritical, searchUntil });
  return outcomes.flatMap((o) => o.findings).filter((f) => f.severity === "critical");
}

/** `families`: the doctor's families to consult (only their critical checks run). */
export async function gatherSessionContext(layout: WorkspaceLayout, clock: Clock, env: NodeJS.ProcessEnv, families: readonly DoctorFamily[]): Promise<ContextSources> {
  const { policy } = await loadPolicySnapshot(layout);
  const scan = await scanFolder({ layout, clock });
  const all = scan.files.flatMap((f) => (f.checkpoint ? [f.checkpoint] : []));
  const checkpoints = openCheckpointsByUrgency(all).map((c) => buildResumeBlock(c, clock.now(), policy.checkpoints.stale_days));
  const critical = families.length === 0 ? [] : await criticalFindings(layout, clock, env, families);
  return { checkpoints, state: readStateSummary(layout), critical, handoff: await pulledHandoff(layout) };
}

/** The newest pulled handoff when it is newer than this workspace's own work; read from the pulled folders only. */
async function pulledHandoff(layout: WorkspaceLayout): Promise<ContextSources["handoff"]> {
  const { newerPulledHandoff } = await import("../handoff/index.js");
  // A pulled note that cannot be used is skipped here; `aop resume --from` names its problem.
  const found = await newerPulledHandoff(layout, () => undefined);
  return found ? { origin: found.origin.label, note: found.note } : null;
}
