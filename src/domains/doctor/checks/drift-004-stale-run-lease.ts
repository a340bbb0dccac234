// DRIFT_004: a run lease that is held (not released) and expired, in any `.aop/runtime/<instance>/`
// folder. A lease whose expiry is the Unix epoch was released (the upstream convention) and is not stale.
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { leaseState } from "../../runs/index.js";
import { readLeases } from "../workspace-reads.js";
import { formatAge } from "../../../core/time-format.js";

export const check: DoctorCheck = {
  id: "DRIFT_004_STALE_RUN_LEASE",
  severity: "warning",
  title: "no stale run lease",
  remediation: "stop the run (`aop run stop --run-id <id>`) or take it over (`aop run start --takeover`)",
  run(ctx) {
    const findings: FindingDraft[] = [];
    for (const read of readLeases(ctx)) {
      if (!read.lease) {
        // No problem: the upstream "no lease" placeholder (run_id "none"), which is not a lease.
        if (read.problem) findings.push({ message: `${read.ref} ${read.problem}`, remediation: "stop any agent using it, then delete the file", refs: [read.ref] });
        continue;
      }
      if (leaseState(read.lease, ctx.clock.now()) !== "expired") continue;
      const expired = Date.parse(read.lease.lease_expires_at);
      const age = Number.isNaN(expired) ? "at an unreadable time" : formatAge(ctx.clock.now() - expired);
      findings.push({ message: `run ${read.lease.run_id} (owner ${read.lease.owner}) holds a lease that expired ${age} (${read.ref})`, refs: [read.ref] });
    }
    return { findings, okMessage: "no stale run lease" };
  },
};
