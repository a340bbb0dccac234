// DRIFT_005: sessions mapped (in a held lease) for features that are not active.
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { isReleased } from "../../runs/index.js";
import { readFeatureIndex, readLeases } from "../workspace-reads.js";

export const check: DoctorCheck = {
  id: "DRIFT_005_RUNTIME_SESSION_ORPHANS",
  severity: "warning",
  title: "sessions map only active features",
  remediation: "reactivate the feature (`aop feature set-status <id> active`) or start a new run to clear its sessions",
  run(ctx) {
    const index = readFeatureIndex(ctx);
    if (index.problem) return { findings: [] }; // DRIFT_008 reports an unreadable index
    const active = new Set(index.lists.active);
    const findings: FindingDraft[] = [];
    for (const read of readLeases(ctx)) {
      if (!read.lease || isReleased(read.lease)) continue;
      for (const [featureId, roles] of Object.entries(read.lease.sessions)) {
        if (active.has(featureId)) continue;
        const status = index.lists.blocked.includes(featureId) ? "blocked" : index.lists.merged.includes(featureId) ? "merged" : "not in the index";
        const sessions = Object.entries(roles).map(([role, session]) => `${role} → ${session}`).join(", ");
        findings.push({ message: `run ${read.lease.run_id} maps sessions (${sessions}) to feature ${featureId}, which is ${status}`, refs: [read.ref] });
      }
    }
    return { findings, okMessage: "sessions map only active features" };
  },
};
