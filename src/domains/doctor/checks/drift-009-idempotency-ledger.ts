// DRIFT_009: the idempotency ledger — files that cannot be read, operations interrupted before their result
// was recorded (nobody retried them yet), and records beyond idempotency.retention (pruning catches up in
// small steps, so those are info). Reads only (docs/kernel.md, "Ledger retention").
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { auditLedger } from "../../../store/ledger-audit.js";

const MAX_LISTED = 20;

export const check: DoctorCheck = {
  id: "DRIFT_009_IDEMPOTENCY_LEDGER",
  severity: "warning",
  title: "the idempotency ledger is readable and settled",
  remediation: "retry an interrupted operation with the same operation_id: it runs again when it had changed nothing, else it answers operation_interrupted with what it changed",
  run(ctx) {
    const retention = ctx.policy.idempotency.retention;
    // Retention ages are file times against the system clock, like the pruning that enforces them.
    const audit = auditLedger(ctx.layout, retention, Date.now());
    const findings: FindingDraft[] = [];
    for (const bad of audit.corrupt.slice(0, MAX_LISTED)) {
      findings.push({
        message: `${bad.path} ${bad.problem}: calls with its operation id fail with file_corrupt`,
        remediation: "the operation it belongs to ran; delete the file only if running it again is safe, else use new operation ids",
        refs: [bad.path],
      });
    }
    for (const op of audit.interrupted.slice(0, MAX_LISTED)) {
      const { intent } = op;
      const changed = op.effects.filter((e) => e.state !== "not_applied").map((e) => e.path);
      const what = changed.length > 0 ? `after changing ${[...new Set(changed)].join(", ")}` : "before changing anything";
      findings.push({
        message: `${intent.tool_name} (operation_id ${intent.operation_id}, started ${intent.started_at} by process ${intent.pid}) was interrupted ${what}; its result was never recorded`,
        refs: [op.path],
      });
    }
    const hidden = Math.max(0, audit.corrupt.length - MAX_LISTED) + Math.max(0, audit.interrupted.length - MAX_LISTED);
    if (hidden > 0) findings.push({ message: `and ${hidden} more ledger file${hidden === 1 ? "" : "s"} like the above`, refs: [ctx.layout.relative(ctx.layout.ledgerDir)] });
    if (audit.records > retention.max_records) {
      findings.push({
        severity: "info",
        message: `the ledger holds ${audit.records} records, over idempotency.retention.max_records (${retention.max_records}); they are pruned a folder at a time as calls are recorded`,
        remediation: "nothing to do unless it keeps growing; lower max_records or max_age_days to keep fewer",
        refs: [ctx.layout.relative(ctx.layout.ledgerDir)],
      });
    }
    if (audit.expired > 0) {
      findings.push({
        severity: "info",
        message: `${audit.expired} ledger record${audit.expired === 1 ? " is" : "s are"} older than idempotency.retention.max_age_days (${retention.max_age_days}) and will be pruned as calls are recorded`,
        remediation: "nothing to do: a retry after max_age_days runs the call again",
        refs: [ctx.layout.relative(ctx.layout.ledgerDir)],
      });
    }
    return { findings, okMessage: "the idempotency ledger is readable and settled" };
  },
};
