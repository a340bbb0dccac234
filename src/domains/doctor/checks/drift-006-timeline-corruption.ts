// DRIFT_006: timelines with unreadable lines, sequence gaps/duplicates, a meta disagreeing with the
// file, or entries not recorded because of retention.
import { AopError } from "../../../core/errors.js";
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { replayWritesEnabled } from "../../../config/policy-types.js";
import { timelineRunIds } from "../../replay/index.js";
import { readRetention } from "../../replay/index.js";
import { spoolBacklog } from "../../replay/index.js";
import { handoffBacklog } from "../../replay/index.js";
import { readExtras } from "../../replay/index.js";
import { readTimelineAudit } from "../workspace-reads.js";

export const check: DoctorCheck = {
  id: "DRIFT_006_TIMELINE_CORRUPTION",
  severity: "warning",
  title: "replay timelines are intact",
  remediation: "inspect the run with `aop replay --run-id <id>`; unreadable lines are skipped by readers and kept as evidence",
  async run(ctx) {
    if (!replayWritesEnabled(ctx.policy)) {
      return { findings: [{ severity: "info", message: "replay timeline is disabled by policy (innovation.replay_debugger / observability.replay.enabled): timelines not checked", remediation: "enable both in policy.yaml to record and check timelines" }] };
    }
    const findings: FindingDraft[] = [];
    for (const runId of timelineRunIds(ctx.layout)) {
      const ref = ctx.layout.relative(ctx.layout.timelineFile(runId));
      const where = `run ${runId}`;
      let a;
      try {
        a = await readTimelineAudit(ctx, runId);
      } catch (err) {
        // The timeline itself could not be read (a special file, a link out of the workspace…).
        if (!(err instanceof AopError)) throw err;
        findings.push({ message: `${where}: timeline not readable: ${err.code} — ${err.message}`, refs: [ref] });
        continue;
      }
      if (a.unparseable + a.invalid > 0) findings.push({ message: `${where}: ${a.unparseable + a.invalid} unreadable line(s) (${a.unparseable} not JSON, ${a.invalid} not an entry)`, refs: [ref] });
      if (a.torn_tail) findings.push({ message: `${where}: the last line is incomplete (a writer stopped mid-line; the next write terminates it)`, refs: [ref] });
      if (a.gaps > 0) findings.push({ message: `${where}: ${a.gaps} sequence gap(s), first after sequence ${a.first_gap_after}`, refs: [ref] });
      if (a.out_of_order > 0) findings.push({ message: `${where}: ${a.out_of_order} duplicate or out-of-order sequence(s), first ${a.first_out_of_order}`, refs: [ref] });
      for (const problem of a.meta_problems) findings.push({ message: `${where}: ${problem}`, refs: [ref, ctx.layout.relative(ctx.layout.timelineMeta(runId))] });
      // Extras whose line is not there (the writer appends a line before its extras, so only an edit or a
      // lost tail leaves these): readers ignore them; said so, never hidden.
      const orphans = readExtras(ctx.layout, runId, { from: a.max_sequence + 1, to: Number.MAX_SAFE_INTEGER }).size;
      if (orphans > 0) {
        findings.push({
          severity: "info",
          message: `${where}: its sidecar holds extras for ${orphans} sequence${orphans === 1 ? "" : "s"} past the timeline's last entry (${a.max_sequence}); readers ignore them`,
          remediation: "nothing to do unless the timeline lost its tail; compare it with a backup",
          refs: [ctx.layout.relative(ctx.layout.timelineExt(runId))],
        });
      }
      const spooled = spoolBacklog(ctx.layout, runId);
      if (spooled > 0) {
        findings.push({
          severity: "info",
          message: `${where}: ${spooled} entr${spooled === 1 ? "y waits" : "ies wait"} in the spool (written by hooks that ran out of time); the run's next write appends ${spooled === 1 ? "it" : "them"}`,
          remediation: "nothing to do; any later call or hook event of the run records them",
          refs: [ctx.layout.relative(ctx.layout.timelineSpoolDir(runId))],
        });
      }
      if (a.meta && a.meta.spool_rejected > 0) findings.push({ message: `${where}: ${a.meta.spool_rejected} spooled entr${a.meta.spool_rejected === 1 ? "y was" : "ies were"} unreadable and dropped`, refs: [ref] });
      if (a.meta && a.meta.dropped_entries > 0) {
        findings.push({
          message: `${where}: ${a.meta.dropped_entries} call(s) not recorded because the run reached max_entries_per_run (${ctx.policy.observability.replay.retention.max_entries_per_run}), from ${a.meta.first_dropped_at} to ${a.meta.last_dropped_at}`,
          remediation: "raise observability.replay.retention.max_entries_per_run or start a new run more often",
          refs: [ref],
        });
      }
    }
    const handoff = handoffBacklog(ctx.layout); // file ages are wall-clock, whatever clock the run uses
    if (handoff.overdue > 0) {
      findings.push({
        severity: "info",
        message: `${handoff.overdue} MCP call entr${handoff.overdue === 1 ? "y was" : "ies were"} not adopted by a Claude Code session hook in time; the next \`aop mcp\` start or session end files ${handoff.overdue === 1 ? "it" : "them"} in the kernel's run`,
        remediation: "nothing to do; run `aop integrate claude --write` so the session hooks adopt them",
        refs: [ctx.layout.relative(ctx.layout.timelineHandoffDir)],
      });
    }
    const retention = readRetention(ctx.layout);
    if (retention.pruned_runs > 0) {
      findings.push({
        severity: "info",
        message: `${retention.pruned_runs} older run(s) (${retention.pruned_entries} entries) were removed by max_runs (${ctx.policy.observability.replay.retention.max_runs}), last at ${retention.last_pruned_at}`,
        remediation: "raise observability.replay.retention.max_runs to keep more runs",
        refs: [ctx.layout.relative(ctx.layout.replayRetentionFile)],
      });
    }
    return { findings, okMessage: "replay timelines are intact" };
  },
};
