// What a retry says about a call that was killed after some of its effects landed (docs/kernel.md,
// "After a crash"): the `operation_interrupted` envelope, and the timeline entry the killed call never wrote.
import { AopError, errorEnvelope, type Envelope } from "../core/errors.js";
import type { CompletedCall } from "../catalog/timeline-hook.js";
import type { CallIdentity, LandedEffect } from "../catalog/tool-types.js";
import type { InterruptedCall } from "./idempotency-ledger.js";

// Handler errors that leave an operation open rather than settled: not recorded, so a retry runs again
// (provided none of the call's effects landed; otherwise its intent stays for the retry to assess).
export const UNSETTLED_CODES: ReadonlySet<string> = new Set(["lock_timeout", "operation_interrupted", "operation_cancelled"]);

// Refusals caused by a file the call depends on (docs/hardening.md, "A refused call changes nothing"). Raised
// before any effect landed, the call did nothing: not recorded, so a retry after the file is repaired runs
// it. Once an effect landed, the refusal is recorded like any other answer.
export const FILE_FAULT_CODES: ReadonlySet<string> = new Set(["file_corrupt", "not_a_regular_file", "file_too_large", "path_outside_workspace", "permission_denied"]);

export function landedEffects(call: InterruptedCall): LandedEffect[] {
  return call.effects.filter((e) => e.kind !== "scratch").map(({ kind, path, state }) => ({ kind, path, state }));
}

function paths(call: InterruptedCall, state: LandedEffect["state"]): string[] {
  return [...new Set(landedEffects(call).filter((e) => e.state === state).map((e) => e.path))];
}

/** The refusal a retry returns (and the ledger keeps) when it cannot tell whether the call finished. */
export function interruptedEnvelope(call: InterruptedCall): Envelope<never> {
  const { intent } = call;
  const applied = paths(call, "applied");
  const changed = paths(call, "changed_since");
  const notApplied = paths(call, "not_applied");
  const what = applied.length > 0 ? `after changing ${applied.join(", ")}` : `after touching ${changed.join(", ")}, which changed again since`;
  return errorEnvelope(
    "operation_interrupted",
    `${intent.tool_name} (operation_id ${intent.operation_id}) was interrupted: process ${intent.pid} stopped ${what}, before its result was recorded. It is not run again, since that could apply it twice.`,
    {
      operation_id: intent.operation_id,
      tool_name: intent.tool_name,
      started_at: intent.started_at,
      pid: intent.pid,
      applied,
      not_applied: notApplied,
      changed_since: changed,
      hint: "the changes listed under `applied` are in place: read the current state (`aop feature show`, `aop run status`, `aop checkpoint show`, `aop evidence latest`) and continue from there; `aop doctor` reports inconsistencies; a new attempt needs a new operation_id",
    },
  );
}

/** The entry of the killed call itself, written when its retry finds it: an error, latency unknown (0). */
export function killedCallRecord(call: InterruptedCall, completedAt: number): CompletedCall {
  const { intent } = call;
  const envelope = errorEnvelope("operation_interrupted", `${intent.tool_name} was interrupted before it returned (process ${intent.pid}, started ${intent.started_at})`, { operation_id: intent.operation_id });
  const identity: CallIdentity = { run_id: intent.run_id, session_id: intent.session_id, actor_type: intent.actor_type as CallIdentity["actor_type"] };
  return {
    completed_at: completedAt,
    identity,
    tool_name: intent.tool_name,
    mutating: true,
    feature_id: intent.feature_id,
    operation_id: intent.operation_id,
    idempotency_status: "new",
    request_hash: intent.request_hash,
    envelope,
    latency_ms: 0,
  };
}

/** Thrown when the result of a call that ran cannot be recorded: a retry must not run it again. */
export function notRecorded(toolName: string, completed: boolean, err: unknown): AopError {
  const message = err instanceof Error ? err.message : String(err);
  return new AopError(
    "io_error",
    `${toolName} ${completed ? "succeeded" : "ran and failed"}, but its result could not be recorded in the idempotency ledger: ${message}. A retry with the same operation_id reports operation_interrupted instead of running it again.`,
    { details: { tool_name: toolName, completed, recorded: false, cause: (err as NodeJS.ErrnoException)?.code ?? null }, cause: err },
  );
}
