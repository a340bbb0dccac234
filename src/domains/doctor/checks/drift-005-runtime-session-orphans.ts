// DRIFT_005: sessions mapped for features that are not active, by a lease that is held (active or
// expired): aop's `sessions`, the upstream orchestrator's `feature_sessions` in its lease file, and the
// copy in index.json's `runtime_sessions`. A released lease's mapping is history: the next run starts
// with none (upstream clears feature_sessions when a new run takes the lease), so it is not checked.
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { isReleased, type RunLease } from "../../runs/index.js";
import { readFeatureIndex, readLeases, type IndexRead } from "../workspace-reads.js";

function orphans(lease: RunLease, index: IndexRead, ref: string, where = ""): FindingDraft[] {
  const active = new Set(index.lists.active);
  const findings: FindingDraft[] = [];
  for (const [featureId, roles] of Object.entries(lease.sessions)) {
    if (active.has(featureId)) continue;
    const status = index.lists.blocked.includes(featureId) ? "blocked" : index.lists.merged.includes(featureId) ? "merged" : "not in the index";
    const sessions = Object.entries(roles).map(([role, session]) => `${role} → ${session}`).join(", ");
    findings.push({ message: `run ${lease.run_id}${where} maps sessions (${sessions || "none"}) to feature ${featureId}, which is ${status}`, refs: [ref] });
  }
  return findings;
}

export const check: DoctorCheck = {
  id: "DRIFT_005_RUNTIME_SESSION_ORPHANS",
  severity: "warning",
  title: "sessions map only active features",
  remediation: "reactivate the feature (`aop feature set-status <id> active`) or start a new run to clear its sessions",
  run(ctx) {
    const index = readFeatureIndex(ctx);
    if (index.problem) return { findings: [] }; // DRIFT_008 reports an unreadable index
    const findings: FindingDraft[] = [];
    const runsWithLeaseFile = new Set<string>();
    for (const read of readLeases(ctx)) {
      if (!read.lease) continue;
      runsWithLeaseFile.add(read.lease.run_id);
      if (!isReleased(read.lease)) findings.push(...orphans(read.lease, index, read.ref));
    }
    // The index's copy is upstream's legacy place for the lease; when a lease file holds the same run, that file is the truth.
    const copy = index.runtimeSessions;
    if (copy && !isReleased(copy) && !runsWithLeaseFile.has(copy.run_id)) {
      findings.push(...orphans(copy, index, ctx.layout.relative(ctx.layout.featuresIndex), " (runtime_sessions in index.json)"));
    }
    return { findings, okMessage: "sessions map only active features" };
  },
};
