// How much of each kind of workspace file aop reads at most (docs/hardening.md has the table and the why).
// Whole-file reads refuse a larger file (file_too_large) unless noted; streamed files (JSONL, hashed logs)
// are bounded per line or per file instead, so memory stays flat whatever their size.

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

export const READ_LIMITS = {
  /** policy.yaml, gates.yaml, tools.md, agent client configs. */
  config: 1 * MiB,
  /** .aop/features/index.json. */
  featureIndex: 8 * MiB,
  /** .aop/features/<id>/state.md. */
  featureState: 1 * MiB,
  /** .aop/runtime/<instance>/run-lease.json. */
  runLease: 1 * MiB,
  /** One idempotency ledger record (holds the call's whole result envelope: a doctor report, a checkpoint). */
  ledgerRecord: 32 * MiB,
  /** A timeline's meta cache. */
  timelineMeta: 4 * MiB,
  /** One spooled timeline entry. */
  spoolEntry: 256 * KiB,
  /** A run's search index (written only up to 8 MiB; a larger one is not ours). */
  searchIndex: 8 * MiB,
  /** replay/retention.json, manifest.integrity.json and other small records. */
  smallRecord: 1 * MiB,
  /** .aop/workspace.json (some 200 bytes): a larger one is not ours, and a new id is written. */
  workspaceIdentity: 64 * KiB,
  /** Gate evidence: gate-<mode>-<ms>.json and latest-<mode>.json. */
  evidence: 16 * MiB,
  /** A step log, hashed as a stream (1 MiB of memory) when evidence is written and verified. */
  stepLog: 1 * GiB,
  /** A chain read whole (Merkle roots and inclusion proofs need every leaf): ~2 million entries. */
  chainWhole: 1 * GiB,
  /** attestation-receipts.txt, read whole by an anchor (~330 bytes a gate run); a larger one is not used. */
  attestationReceipts: 1 * GiB,
  /** One line of a JSONL file (timeline, chain, hooks log); a longer line is skipped and counted. */
  jsonlLine: 1 * MiB,
  /** A checkpoint file. */
  checkpoint: 1 * MiB,
  /** memory/CURRENT_STATE.md and session archives: read this far, the rest ignored (reported). */
  memoryState: 256 * KiB,
  /** tasks.md and openspec documents: read this far. */
  planning: 1 * MiB,
  /** Doctor reports (last_report.json, history). */
  doctorReport: 16 * MiB,
  /** A lock file's holder record. */
  lockHolder: 4 * KiB,
  /** Anything not listed above. */
  other: 16 * MiB,
} as const;
