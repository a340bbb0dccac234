// Verifies one feature's integrity chain and fails closed at the first problem. Pure over its inputs:
// the chain's lines, the manifest as read, the latest-* copies and a file reader; it does no I/O itself.
import { sha256Of } from "../../core/hash.js";
import { chainEntryProblem, GENESIS_HASH, recomputeChainHash, type ChainEntry } from "./chain-hash.js";
import { baseName, parseEvidenceFileName } from "./evidence-names.js";
import { stepLogRefs, type LogRef } from "./step-log-refs.js";

export type ChainFailureCode = "evidence_chain_missing" | "evidence_chain_artifact_missing" | "evidence_chain_hash_mismatch" | "evidence_chain_discontinuity";

export interface ChainVerifyReport {
  feature_id: string;
  valid: boolean;
  /** Complete lines in the chain file. */
  entry_count: number;
  /** chain_hash of the last entry that verified (the head when valid); null when none did. */
  head_hash: string | null;
  first_failure_sequence: number | null;
  failure_code: ChainFailureCode | null;
  failure_reason: string | null;
  artifact_rel_path: string | null;
  expected_hash: string | null;
  actual_hash: string | null;
}

export type ManifestView = { status: "present"; entry_count: number; head_hash: string } | { status: "absent" } | { status: "unreadable"; reason: string };

export interface ChainLineInput {
  text: string;
  /** False for a final line without a newline (an interrupted append). */
  complete: boolean;
}

export interface LatestCopy {
  mode: string;
  rel_path: string;
  /** The copy's bytes, or why it was not read (a special file, a link out of the workspace, too large). */
  bytes: Uint8Array | Refused;
}

/** A file the reader would not read, and why (the end of a sentence, with the store's code). */
export interface Refused {
  refused: string;
}

function isRefused(value: unknown): value is Refused {
  return typeof value === "object" && value !== null && "refused" in value;
}

/**
 * Reads workspace-relative files; null when the file is missing or lies outside the workspace root, a
 * refusal when it is not one the reader trusts. The bytes `read` returns may be reused by the next
 * `read` or `hash` call (the verifier consumes them at once).
 */
export interface EvidenceFileReader {
  read(relPath: string): Uint8Array | null | Refused;
  hash(relPath: string): string | null | Refused;
}

/** Told, in order, about every complete line and about every entry whose artifact and logs verified. */
export interface ChainObserver {
  line?(text: string, sequence: number): void;
  entry?(entry: ChainEntry, logs: readonly LogRef[]): void;
}

export interface ChainVerifyInput {
  feature_id: string;
  /** Workspace-relative paths of the feature's evidence folder, chain and manifest. */
  evidence_dir: string;
  chain_rel_path: string;
  manifest_rel_path: string;
  chain_exists: boolean;
  manifest: ManifestView;
  lines: Iterable<ChainLineInput>;
  latest: LatestCopy[];
  files: EvidenceFileReader;
  /** Called every PROGRESS_EVERY entries with the number walked so far. */
  onProgress?: (walked: number) => void;
  observer?: ChainObserver;
}

export const PROGRESS_EVERY = 250;

interface Failure {
  code: ChainFailureCode;
  sequence: number | null;
  reason: string;
  path: string | null;
  expected: string | null;
  actual: string | null;
}

interface NewestGate {
  sequence: number;
  epochMs: number;
  artifact_hash: string;
  rel_path: string;
}

function discontinuity(sequence: number | null, reason: string, path: string | null, expected: string | null = null, actual: string | null = null): Failure {
  return { code: "evidence_chain_discontinuity", sequence, reason, path, expected, actual };
}

function mismatch(sequence: number | null, reason: string, path: string | null, expected: string | null, actual: string | null): Failure {
  return { code: "evidence_chain_hash_mismatch", sequence, reason, path, expected, actual };
}

function missing(sequence: number | null, reason: string, path: string): Failure {
  return { code: "evidence_chain_artifact_missing", sequence, reason, path, expected: null, actual: null };
}

/** Walks entries in order, remembering the head and the newest chained gate file of each mode. */
class ChainWalker {
  prev = GENESIS_HASH;
  head: string | null = null;
  readonly newest = new Map<string, NewestGate>();

  constructor(private readonly input: ChainVerifyInput) {}

  check(text: string, sequence: number): Failure | null {
    const { input } = this;
    const chainPath = input.chain_rel_path;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return discontinuity(sequence, `line ${sequence + 1} of the chain is not valid JSON`, chainPath);
    }
    const problem = chainEntryProblem(value);
    if (problem) return discontinuity(sequence, `line ${sequence + 1} of the chain ${problem}`, chainPath);
    const entry = value as ChainEntry;
    if (entry.sequence !== sequence) {
      return discontinuity(sequence, `line ${sequence + 1} carries sequence ${entry.sequence}, expected ${sequence} (an entry was removed, duplicated or moved)`, chainPath);
    }
    if (entry.feature_id !== input.feature_id) return discontinuity(sequence, `entry ${sequence} belongs to feature '${entry.feature_id}'`, chainPath);
    const name = parseEvidenceFileName(baseName(entry.artifact_rel_path));
    if (name?.kind !== "gate" || entry.artifact_rel_path !== `${input.evidence_dir}/${baseName(entry.artifact_rel_path)}`) {
      return discontinuity(sequence, `entry ${sequence} names '${entry.artifact_rel_path}', which is not a gate evidence file of this feature`, chainPath);
    }
    const recomputed = recomputeChainHash(entry);
    if (recomputed === null) return discontinuity(sequence, `entry ${sequence} holds text that cannot be canonicalized (a lone surrogate)`, chainPath);
    if (recomputed !== entry.chain_hash) {
      return mismatch(sequence, `entry ${sequence} was altered: its chain_hash does not match its contents`, chainPath, entry.chain_hash, recomputed);
    }
    if (entry.prev_chain_hash !== this.prev) {
      const link = sequence === 0 ? "does not start from the genesis hash" : `does not link to entry ${sequence - 1}: prev_chain_hash differs from its chain_hash`;
      return discontinuity(sequence, `entry ${sequence} ${link}`, chainPath, this.prev, entry.prev_chain_hash);
    }
    const checked = this.checkArtifact(entry, sequence);
    if (!Array.isArray(checked)) return checked;
    input.observer?.entry?.(entry, checked);
    this.prev = entry.chain_hash;
    this.head = entry.chain_hash;
    const newest = this.newest.get(name.mode);
    if (!newest || name.epochMs > newest.epochMs) {
      this.newest.set(name.mode, { sequence, epochMs: name.epochMs, artifact_hash: entry.artifact_hash, rel_path: entry.artifact_rel_path });
    }
    return null;
  }

  /** The entry's step logs when the artifact and every log verify, else the failure. */
  private checkArtifact(entry: ChainEntry, sequence: number): Failure | LogRef[] {
    const bytes = this.input.files.read(entry.artifact_rel_path);
    if (bytes === null) return missing(sequence, `evidence file of entry ${sequence} is missing`, entry.artifact_rel_path);
    if (isRefused(bytes)) return missing(sequence, `evidence file of entry ${sequence} ${bytes.refused}`, entry.artifact_rel_path);
    const actual = sha256Of(bytes);
    if (actual !== entry.artifact_hash) {
      return mismatch(sequence, `evidence file of entry ${sequence} was modified after it was chained`, entry.artifact_rel_path, entry.artifact_hash, actual);
    }
    const logs = stepLogRefs(bytes);
    for (const log of logs) {
      const logHash = this.input.files.hash(log.log_path);
      if (logHash === null) return missing(sequence, `step log of entry ${sequence} is missing`, log.log_path);
      if (isRefused(logHash)) return missing(sequence, `step log of entry ${sequence} ${logHash.refused}`, log.log_path);
      if (logHash !== log.log_sha256) {
        return mismatch(sequence, `step log of entry ${sequence} was modified after its evidence was written`, log.log_path, typeof log.log_sha256 === "string" ? log.log_sha256 : null, logHash);
      }
    }
    return logs;
  }
}

function manifestFailure(input: ChainVerifyInput, count: number, head: string | null): Failure | null {
  const manifest = input.manifest;
  const path = input.manifest_rel_path;
  if (manifest.status === "unreadable") return discontinuity(null, `the manifest cannot be trusted: ${manifest.reason}`, path);
  const recorded = manifest.status === "present" ? manifest : { entry_count: 0, head_hash: GENESIS_HASH };
  const chainHead = head ?? GENESIS_HASH;
  if (count < recorded.entry_count) {
    return discontinuity(count, `the manifest records ${recorded.entry_count} entries but the chain has ${count}: the chain was truncated`, input.chain_rel_path, recorded.head_hash, chainHead);
  }
  if (count > recorded.entry_count) {
    const reason =
      manifest.status === "absent"
        ? `the manifest is missing while the chain has ${count} entries`
        : `entry ${recorded.entry_count} is not counted by the manifest (an append interrupted before the manifest was written, or an entry added afterwards); the next append counts it`;
    return discontinuity(recorded.entry_count, reason, manifest.status === "absent" ? path : input.chain_rel_path, recorded.head_hash, chainHead);
  }
  if (chainHead !== recorded.head_hash) {
    return mismatch(count > 0 ? count - 1 : null, "the chain's head differs from the head recorded in the manifest", path, recorded.head_hash, chainHead);
  }
  return null;
}

function latestFailure(input: ChainVerifyInput, newest: Map<string, NewestGate>): Failure | null {
  const copies = [...input.latest].sort((a, b) => (a.mode < b.mode ? -1 : a.mode > b.mode ? 1 : 0));
  for (const copy of copies) {
    const gate = newest.get(copy.mode);
    if (isRefused(copy.bytes)) return mismatch(gate?.sequence ?? null, `${baseName(copy.rel_path)} ${copy.bytes.refused}`, copy.rel_path, gate?.artifact_hash ?? null, null);
    const actual = sha256Of(copy.bytes);
    if (!gate) return mismatch(null, `${baseName(copy.rel_path)} has no chained gate-${copy.mode} evidence to match (written while integrity was off?)`, copy.rel_path, null, actual);
    if (actual !== gate.artifact_hash) {
      return mismatch(gate.sequence, `${baseName(copy.rel_path)} is not a byte copy of the newest chained evidence ${baseName(gate.rel_path)}`, copy.rel_path, gate.artifact_hash, actual);
    }
  }
  const modes = [...newest.keys()].sort();
  for (const mode of modes) {
    if (copies.some((c) => c.mode === mode)) continue;
    const gate = newest.get(mode)!;
    return missing(gate.sequence, `latest-${mode}.json is missing; it should be a copy of ${baseName(gate.rel_path)}`, `${input.evidence_dir}/latest-${mode}.json`);
  }
  return null;
}

export function verifyChain(input: ChainVerifyInput): ChainVerifyReport {
  const report: ChainVerifyReport = {
    feature_id: input.feature_id,
    valid: false,
    entry_count: 0,
    head_hash: null,
    first_failure_sequence: null,
    failure_code: null,
    failure_reason: null,
    artifact_rel_path: null,
    expected_hash: null,
    actual_hash: null,
  };
  if (!input.chain_exists) {
    const recorded = input.manifest.status === "present" ? ` although the manifest records ${input.manifest.entry_count} entries` : "";
    return { ...report, failure_code: "evidence_chain_missing", failure_reason: `the feature has no integrity chain${recorded}`, artifact_rel_path: input.chain_rel_path };
  }
  const walker = new ChainWalker(input);
  let count = 0;
  let torn = false;
  let failure: Failure | null = null;
  for (const line of input.lines) {
    if (!line.complete) {
      torn = true;
      break;
    }
    const sequence = count++;
    input.observer?.line?.(line.text, sequence);
    if (failure === null) failure = walker.check(line.text, sequence);
    if (count % PROGRESS_EVERY === 0) input.onProgress?.(count);
  }
  if (failure === null && torn) {
    const where = count === 0 ? "its first line is incomplete" : `it ends in an incomplete line after entry ${count - 1}`;
    failure = discontinuity(count, `the chain is torn: ${where} (an interrupted append); the next append removes it`, input.chain_rel_path);
  }
  failure ??= manifestFailure(input, count, walker.head);
  failure ??= latestFailure(input, walker.newest);
  report.entry_count = count;
  report.head_hash = walker.head;
  if (failure === null) return { ...report, valid: true };
  return {
    ...report,
    first_failure_sequence: failure.sequence,
    failure_code: failure.code,
    failure_reason: failure.reason,
    artifact_rel_path: failure.path,
    expected_hash: failure.expected,
    actual_hash: failure.actual,
  };
}
