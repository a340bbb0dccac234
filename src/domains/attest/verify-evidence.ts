// `evidence.verify_chain` in full: the chain (evidence domain), every attestation beside it, and the newest
// anchor (plus one handed in). The chain's own failure comes first; then an anchor's, then an attestation's.
import fs from "node:fs";
import type { Clock } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { recordVerificationResult, verifyFeatureChain, type ChainObserver, type ChainVerifyReport } from "../evidence/index.js";
import { checkAnchor, type AnchorFailureCode, type AnchorVerdict } from "./anchor-check.js";
import { readNewestAnchor, type NewestAnchor } from "./anchor-file.js";
import type { AttestationFailureCode } from "./attestation-check.js";
import { AttestationCollector, type AttestationSummary } from "./attestation-collector.js";
import { checkAttestationDigests, type AttestationDigests } from "./attestation-digests.js";
import { addUnchainedAttestations } from "./attestation-orphans.js";
import type { TrustedKey } from "./ed25519-keys.js";
import { leafHashOfText } from "./merkle-tree.js";
import { readCommittedKeys } from "./public-keys.js";

interface AnchorReport extends AnchorVerdict {
  /** Where the anchor came from: the anchors file (with its line) or `argument`. */
  source: string;
  anchored_at: string | null;
  /** Complete entries of today's chain. */
  entry_count: number;
}

export interface EvidenceVerifyReport extends Omit<ChainVerifyReport, "failure_code"> {
  failure_code: ChainVerifyReport["failure_code"] | AnchorFailureCode | AttestationFailureCode;
  attestations: AttestationSummary;
  anchors: AnchorReport[];
}

export interface EvidenceVerifyOptions {
  /** `again` is set on the second walk, when the anchor's attestation digests did not hold. */
  onProgress?: (walked: number, expected: number | null, again?: "attestations_in_full") => void;
  /** Record the outcome in the manifest's last_verified_* fields (default true). */
  recordResult?: boolean;
  /** A signed checkpoint kept elsewhere (a copy from refs/aop/anchors, a CI log), checked as well. */
  anchorNote?: string;
  /** A pulled workspace's folder: read without locks, nothing recorded (docs/handoff.md). */
  frozen?: boolean;
}

/** The anchors file's newest anchor and the one handed in, each checked against the chain's leaves. */
function anchorsOf(layout: WorkspaceLayout, featureId: string, keys: TrustedKey[], newest: NewestAnchor, leaves: Buffer[], entryCount: number, given: string | undefined): AnchorReport[] {
  const out: AnchorReport[] = [];
  const file = layout.relative(layout.anchorsFile(featureId));
  const report = (verdict: AnchorVerdict, source: string, anchoredAt: string | null): AnchorReport => ({ ...verdict, source, anchored_at: anchoredAt, entry_count: entryCount });
  if (newest.status === "malformed") {
    out.push(report({ ...checkAnchor("", featureId, keys, leaves), failure_reason: `the newest anchor (${newest.reason}) cannot be read` }, `${file}:${newest.line}`, null));
  } else if (newest.status === "present") {
    out.push(report(checkAnchor(newest.record.note, featureId, keys, leaves), `${file}:${newest.line}`, newest.record.anchored_at || null));
  }
  if (given !== undefined) out.push(report(checkAnchor(given, featureId, keys, leaves), "argument", null));
  return out;
}

/** The first failure worth reporting at the top, in the chain's report fields. */
function merged(chain: ChainVerifyReport, attestations: AttestationSummary, anchors: AnchorReport[]): EvidenceVerifyReport {
  const report: EvidenceVerifyReport = { ...chain, attestations, anchors };
  if (!chain.valid) return report;
  const anchor = anchors.find((a) => !a.valid);
  if (anchor) {
    const truncated = anchor.tree_size !== null && anchor.tree_size > anchor.entry_count;
    return {
      ...report,
      valid: false,
      first_failure_sequence: truncated ? anchor.entry_count : null,
      failure_code: anchor.failure_code,
      failure_reason: `anchor ${anchor.source}: ${anchor.failure_reason}`,
      artifact_rel_path: anchor.source === "argument" ? null : anchor.source.replace(/:\d+$/, ""),
      expected_hash: anchor.root,
      actual_hash: anchor.current_root,
    };
  }
  const failure = attestations.failures[0];
  if (failure) {
    return { ...report, valid: false, first_failure_sequence: failure.sequence, failure_code: failure.code, failure_reason: `attestation ${failure.path}: ${failure.reason}`, artifact_rel_path: failure.path, expected_hash: null, actual_hash: null };
  }
  return report;
}

export async function verifyEvidence(layout: WorkspaceLayout, clock: Clock, featureId: string, options: EvidenceVerifyOptions = {}): Promise<EvidenceVerifyReport> {
  const keys = readCommittedKeys(layout).keys;
  const newest = readNewestAnchor(layout, featureId);
  // The newest anchor's attestation digests, when signed by a committed key under today's keys.
  const digests = newest.status === "present" && newest.record.attestations !== undefined ? checkAttestationDigests(newest.record.attestations, featureId, keys) : null;
  // When the digests do not hold (rare: something changed), the attestations they cover are checked in
  // full by a second walk without them; keeping every entry for that would cost each verification more.
  // A walk with digests that fails (a file the store refuses) gives way to that walk too, so the error
  // is the one the walk without digests meets first.
  const first = digests === null ? null : await verifyOnce(layout, clock, featureId, keys, newest, digests, options).catch((err: unknown) => {
    if (err instanceof AopError) return null;
    throw err;
  });
  const again = first === null && digests !== null && options.onProgress ? { ...options, onProgress: (walked: number, expected: number | null) => options.onProgress!(walked, expected, "attestations_in_full") } : options;
  const report = first ?? (await verifyOnce(layout, clock, featureId, keys, newest, null, again))!;
  if (options.recordResult !== false && !options.frozen && !layout.frozen && fs.existsSync(layout.manifestFile(featureId))) await recordVerificationResult(layout, clock, featureId, report.valid);
  return report;
}

/** One walk of the chain with its attestations and anchors; null when the digests vouched for attestations that must be checked in full. */
async function verifyOnce(
  layout: WorkspaceLayout,
  clock: Clock,
  featureId: string,
  keys: ReadonlyMap<string, TrustedKey>,
  newest: NewestAnchor,
  digests: AttestationDigests | null,
  options: EvidenceVerifyOptions,
): Promise<EvidenceVerifyReport | null> {
  // The evidence folder as the chain's snapshot lists it (no folder: no attestations).
  let collector = new AttestationCollector(layout, keys, new Set());
  const onListing = (names: readonly string[]) => {
    collector = new AttestationCollector(layout, keys, new Set(names));
    if (digests !== null) collector.vouchFor(digests);
  };
  // The chain's Merkle leaves, only when an anchor is there to check them against.
  const leaves: Buffer[] | null = newest.status === "present" || options.anchorNote !== undefined ? [] : null;
  const observer: ChainObserver = {
    line: leaves === null ? undefined : (text) => void leaves.push(leafHashOfText(text)),
    entry: (entry, logs) => collector.addEntry(featureId, entry, logs),
  };
  try {
    const chain = await verifyFeatureChain(layout, clock, featureId, { onProgress: options.onProgress, recordResult: false, observer, onListing, ...(options.frozen ? { frozen: true } : {}) });
    const anchors = anchorsOf(layout, featureId, [...keys.values()], newest, leaves ?? [], chain.entry_count, options.anchorNote);
    const anchored = newest.status === "present" ? anchors[0] : undefined;
    if (!collector.settleVouched(chain.valid && anchored?.valid === true && anchored.tree_size === digests?.size && anchored.root === digests.chainRoot)) return null;
    if (chain.valid) addUnchainedAttestations(layout, featureId, collector);
    return merged(chain, await collector.summary(), anchors);
  } catch (err) {
    collector.discard(); // a file the store refused: the signature checks begun so far go unread
    throw err;
  }
}
