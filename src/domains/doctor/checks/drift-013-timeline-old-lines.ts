// DRIFT_013: timelines holding lines in the shape aop wrote before DESIGN §21 (extras inside the line,
// a null session_id, a fractional latency_ms). aop reads them; the upstream orchestrator's replay refuses
// them. `aop migrate` rewrites them into the seed's line plus the run's sidecar, keeping a backup.
import { AopError } from "../../../core/errors.js";
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { timelineRunIds } from "../../replay/index.js";
import { readTimelineAudit } from "../workspace-reads.js";

export const check: DoctorCheck = {
  id: "DRIFT_013_TIMELINE_OLD_LINES",
  severity: "info",
  title: "timelines are in the seed's line shape",
  remediation: "run `aop migrate` (see `aop migrate --dry-run` first): it rewrites the lines into the seed's 14 keys and moves their extras to the run's sidecar, keeping a backup",
  async run(ctx) {
    const findings: FindingDraft[] = [];
    for (const runId of timelineRunIds(ctx.layout)) {
      let old: number;
      try {
        old = (await readTimelineAudit(ctx, runId)).old_shape;
      } catch (err) {
        if (err instanceof AopError) continue; // an unreadable timeline is DRIFT_006's finding
        throw err;
      }
      if (old > 0) {
        findings.push({
          message: `run ${runId}: ${old} line${old === 1 ? "" : "s"} in aop's older shape (extras inside the line, a null session_id or a fractional latency_ms): aop reads ${old === 1 ? "it" : "them"}, the upstream orchestrator's replay does not`,
          refs: [ctx.layout.relative(ctx.layout.timelineFile(runId))],
        });
      }
    }
    return { findings, okMessage: "every timeline line is in the seed's shape" };
  },
};
