// Verifies one feature's integrity chain and fails closed at the first problem. Pure over its inputs:
// the chain's lines, the manifest as read, the latest-* copies and a file reader; it does no I/O itself.
import { sha256Of } from "../../core/hash.js";
import type { EvidenceFileReader } from "./artifact-check.js";
import { checkChainEntry, isFailure } from "./chain-entry-check.js";
import { discontinuity, isRefused, mismatch, missing, type ChainFailureCode, type Failure, type Refused } from "./chain-failure.js";
import { GENESIS_HASH, type ChainEntry } from "./chain-hash.js";
import { baseName } from "./evidence-names.js";
import type { LogRef } from "./step-log-refs.js";
import { compareText } from "../../core/compare-text.js";


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

interface ChainLineInput {
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

interface NewestGate {
  sequence: number;
  epochMs: number;
  artifact_hash: string;
  rel_path: string;
}

/** Walks entries in order, remembering the head and the newest chained gate file of each mode. */
class ChainWalker {
  prev = GENESIS_HASH;
  head: string | null = null;
  readonly newest = new Map<string, NewestGate>();

  constructor(private readonly input: ChainVerifyInput) {}

  check(text: string, sequence: number): Failure | null {
    const checked = checkChainEntry(this.input, this.input.files, text, sequence, this.prev);
    if (isFailure(checked)) return checked;
    const { entry, mode, epochMs, logs } = checked;
    this.input.observer?.entry?.(entry, logs);
    this.prev = entry.chain_hash;
    this.head = entry.chain_hash;
    const newest = this.newest.get(mode);
    if (!newest || epochMs > newest.epochMs) {
      this.newest.set(mode, { sequence, epochMs, artifact_hash: entry.artifact_hash, rel_path: entry.artifact_rel_path });
    }
    return null;
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
  const copies = [...input.latest].sort((a, b) => compareText(a.mode, b.mode));
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
