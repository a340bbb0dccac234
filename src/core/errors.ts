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
  // files and the workspace (docs/hardening.md)
  "workspace_not_found",
  "path_outside_workspace",
  "not_a_regular_file",
  "file_too_large",
  "disk_full",
  "permission_denied",
  // pipeline
  "unknown_tool",
  "forbidden_tool_for_role",
  "operation_id_required",
  "operation_id_reuse_mismatch",
  "operation_interrupted",
  "operation_cancelled",
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
  "replay_sequence_out_of_range",
  // gates and evidence
  "gate_profile_not_found",
  "gate_mode_not_found",
  "gate_step_invalid",
  "gate_failed",
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
  "signing_key_misplaced",
  "anchor_git_failed",
  // doctor
  "doctor_check_failed",
  "doctor_disabled",
  // checkpoints
  "checkpoint_not_found",
  "checkpoint_invalid",
  "checkpoint_queue_empty",
  "checkpoint_verify_failed",
  // export
  "export_failed",
  // pulled records and handoff notes (docs/handoff.md)
  "origin_not_found",
  "handoff_not_found",
  "handoff_incomplete",
  "handoff_invalid",
  // sync (docs/sync.md)
  "sync_not_a_git_repository",
  "sync_unknown_remote",
  "sync_ref_refused",
  "sync_nothing_to_push",
  "sync_git_missing",
  "sync_git_failed",
  "sync_remote_tree_refused",
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

  /** The error a body (toBody's, from another thread or process) describes; a code this build does not know is internal_error. */
  static fromBody(body: ErrorBody): AopError {
    const { code, message, details } = body;
    return new AopError(isErrorCode(code) ? code : "internal_error", message, { details, ...(typeof details.hint === "string" ? { hint: details.hint } : {}) });
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

// What a failed system call means for the user, by its errno (docs/hardening.md).
const ERRNO_CODES: Record<string, { code: ErrorCode; what: string; hint: string }> = {
  ENOSPC: { code: "disk_full", what: "the disk is full", hint: "free some disk space and retry" },
  EDQUOT: { code: "disk_full", what: "the disk quota is exhausted", hint: "free some disk space and retry" },
  EPERM: { code: "permission_denied", what: "the operation is not permitted", hint: "check the owner, mode and attributes (chattr +i?) of the file and its folder" },
  EACCES: { code: "permission_denied", what: "permission denied", hint: "check the owner and mode of the file and its folder" },
  EROFS: { code: "permission_denied", what: "the file system is read-only", hint: "run aop on a writable copy of the workspace" },
  ENOTDIR: { code: "file_corrupt", what: "a file stands where a folder is expected", hint: "move that file out of the way, then retry" },
  EISDIR: { code: "not_a_regular_file", what: "a folder stands where a file is expected", hint: "move that folder out of the way, then retry" },
};

/**
 * A failed system call (an error with an errno `code`) as an AopError with its own code and path, or null
 * for other errors. `file` names the path when the call had none (a write to an open descriptor).
 */
export function errorFromErrno(err: unknown, file?: string): AopError | null {
  const errno = err as NodeJS.ErrnoException | undefined;
  const known = typeof errno?.code === "string" ? ERRNO_CODES[errno.code] : undefined;
  if (!known) return null;
  file = typeof errno!.path === "string" ? errno!.path : file;
  const syscall = typeof errno!.syscall === "string" ? errno!.syscall : null;
  return new AopError(known.code, `${file ?? "a workspace file"}: ${known.what} (${errno!.code}${syscall ? ` in ${syscall}` : ""})`, {
    details: { path: file ?? null, errno: errno!.code, syscall },
    hint: known.hint,
    cause: err,
  });
}

/** Any thrown value → an error envelope; failed system calls get their own code, anything else unexpected is `internal_error`. */
export function envelopeFromError(err: unknown): Envelope<never> {
  if (isAopError(err)) return { ok: false, error: err.toBody() };
  const io = errorFromErrno(err);
  if (io) return { ok: false, error: io.toBody() };
  const message = err instanceof Error ? err.message : String(err);
  return errorEnvelope("internal_error", message);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}
