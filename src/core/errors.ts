// The one error-code list and the one result envelope shared by the CLI, the runtime and MCP.

export const ERROR_CODES = [
  // generic
  "invalid_argument",
  "usage_error",
  "not_found",
  "internal_error",
  "io_error",
  "file_corrupt",
  "payload_too_large",
  "lock_timeout",
  "config_invalid",
  // pipeline
  "unknown_tool",
  "forbidden_tool_for_role",
  "operation_id_required",
  "operation_id_reuse_mismatch",
  "operation_interrupted",
  // features, runs, sessions
  "feature_not_found",
  "feature_already_exists",
  "feature_not_active",
  "version_conflict",
  "run_already_active",
  "run_not_active",
  "run_owner_mismatch",
  // replay
  "replay_timeline_write_failed",
  "replay_run_not_found",
  // gates and evidence
  "gate_profile_not_found",
  "gate_mode_not_found",
  "gate_step_invalid",
  "evidence_not_found",
  "evidence_chain_missing",
  "evidence_chain_artifact_missing",
  "evidence_chain_hash_mismatch",
  "evidence_chain_discontinuity",
  // attestations, anchors and signing keys
  "evidence_attestation_malformed",
  "evidence_attestation_subject_mismatch",
  "evidence_signature_invalid",
  "evidence_signing_key_unknown",
  "evidence_anchor_malformed",
  "evidence_chain_anchor_mismatch",
  "signing_key_missing",
  "signing_key_ambiguous",
  "signing_key_insecure",
  "signing_key_invalid",
  "anchor_git_failed",
  // doctor
  "doctor_check_failed",
  "doctor_disabled",
  // checkpoints
  "checkpoint_not_found",
  "checkpoint_invalid",
  "checkpoint_queue_empty",
  "checkpoint_verify_failed",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown>;
}

export type Envelope<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/** An error a program can switch on (`code`) and a person can act on (`message`, `hint`). */
export class AopError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AopError";
    this.code = code;
    this.details = options.details ?? {};
    this.hint = options.hint;
  }

  /** The envelope body; a hint travels in `details.hint` so every transport carries it. */
  toBody(): ErrorBody {
    return { code: this.code, message: this.message, details: this.hint === undefined ? this.details : { ...this.details, hint: this.hint } };
  }
}

export function isAopError(value: unknown): value is AopError {
  return value instanceof AopError;
}

export function okEnvelope<T>(data: T): Envelope<T> {
  return { ok: true, data };
}

export function errorEnvelope(code: ErrorCode, message: string, details: Record<string, unknown> = {}): Envelope<never> {
  return { ok: false, error: { code, message, details } };
}

/** Any thrown value → an error envelope; unexpected errors become `internal_error`. */
export function envelopeFromError(err: unknown): Envelope<never> {
  if (isAopError(err)) return { ok: false, error: err.toBody() };
  const message = err instanceof Error ? err.message : String(err);
  return errorEnvelope("internal_error", message);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
