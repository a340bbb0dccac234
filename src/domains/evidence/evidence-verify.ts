// Verifying chains on disk: a consistent snapshot taken under the feature's evidence lock, the pure walk
// over it (outside the lock, so appends are not held up), then the manifest's last_verified_* fields.
import fs from "node:fs";
import path from "node:path";
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import { idProblem, validateId } from "../../core/ids.js";
import { readBytesBounded, refusalProblem } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { verifyChain, type ChainObserver, type ChainVerifyReport, type LatestCopy, type ManifestView } from "./chain-verify.js";
import { readManifest, writeManifest } from "./chain-manifest.js";
import { evidenceLockPath } from "./chain-store.js";
import { workspaceReader } from "./evidence-reader.js";
import { parseEvidenceFileName } from "./evidence-names.js";

export interface VerifyOptions {
  /** Entries walked so far and the count the manifest expects (null when unknown). */
  onProgress?: (walked: number, expected: number | null) => void;
  /** Record the outcome in the manifest's last_verified_* fields (default true; the doctor only reads). */
  recordResult?: boolean;
  /** Sees every chain line and every verified entry (attestation and anchor checks ride along). */
  observer?: ChainObserver;
  /** Given the evidence folder's names as the snapshot listed them (under the lock), before the walk. */
  onListing?: (names: readonly string[]) => void;
  /**
   * For read-only callers that verify many chains (the doctor): take the snapshot without the evidence
   * lock first, and under it only when that one does not verify. Only a concurrent append can tear an
   * unlocked snapshot (the chain only grows; the manifest and latest-* copies are replaced whole), and a
   * torn one never verifies: the counts, the head or a latest-* copy disagree. Never records a result;
   * ignored with an observer or onListing (the walk would run twice).
   */
  optimistic?: boolean;
  /**
   * A folder no writer appends to (a pulled workspace, replaced whole by each pull: docs/handoff.md): the
   * snapshot is taken without the evidence lock, which would be a write into it. Never records a result.
   */
  frozen?: boolean;
}

interface ChainSnapshot {
  /** The evidence folder's names. */
  names: readonly string[];
  chainSize: number | null;
  manifest: ManifestView;
  latest: LatestCopy[];
}

function readLatestCopies(layout: WorkspaceLayout, featureId: string, names: readonly string[], memo: Set<string>): LatestCopy[] {
  const dir = layout.evidenceDir(featureId);
  const out: LatestCopy[] = [];
  for (const name of names) {
    if (!name.startsWith("latest-")) continue; // the folder holds a gate file or more per run: skip them cheaply
    const parsed = parseEvidenceFileName(name);
    if (parsed?.kind !== "latest") continue;
    const read = readBytesBounded(path.join(dir, name), READ_LIMITS.evidence, { memo });
    if (read.status === "missing") continue;
    const bytes = read.status === "ok" ? read.bytes : { refused: refusalProblem(read) };
    out.push({ mode: parsed.mode, rel_path: layout.relative(path.join(dir, name)), bytes });
  }
  return out;
}

/** Chain length, manifest and latest-* copies as of one instant: no append is half-done while we look. */
function takeSnapshot(layout: WorkspaceLayout, featureId: string, memo: Set<string>): ChainSnapshot {
  let chainSize: number | null = null;
  try {
    chainSize = fs.statSync(layout.chainFile(featureId)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const names = fs.readdirSync(layout.evidenceDir(featureId));
  return { names, chainSize, manifest: readManifest(layout, featureId, memo).view, latest: readLatestCopies(layout, featureId, names, memo) };
}

export function requireFeatureDir(layout: WorkspaceLayout, featureId: string): void {
  if (!fs.existsSync(layout.featureDir(validateId("feature_id", featureId)))) {
    throw new AopError("feature_not_found", `feature '${featureId}' does not exist`, { details: { feature_id: featureId }, hint: "list features with `aop feature list`" });
  }
}

export async function verifyFeatureChain(layout: WorkspaceLayout, clock: Clock, featureId: string, options: VerifyOptions = {}): Promise<ChainVerifyReport> {
  requireFeatureDir(layout, featureId);
  const lock = evidenceLockPath(layout, featureId);
  const hasEvidenceDir = fs.existsSync(layout.evidenceDir(featureId));
  // Folders found inside the workspace (containment.ts), shared by the snapshot's reads and the walk's.
  const folders = new Set<string>();
  if (options.optimistic && hasEvidenceDir && !options.observer && !options.onListing) {
    try {
      const report = walkSnapshot(layout, featureId, takeSnapshot(layout, featureId, folders), folders, options);
      if (report.valid) return report;
    } catch {
      // checked again under the lock, which reports what it finds
    }
  }
  const take = () => takeSnapshot(layout, featureId, folders);
  const frozen = options.frozen === true || layout.frozen;
  const snapshot: ChainSnapshot = !hasEvidenceDir ? { names: [], chainSize: null, manifest: { status: "absent" }, latest: [] } : frozen ? take() : await withLock(lock, take);
  options.onListing?.(snapshot.names);
  const report = walkSnapshot(layout, featureId, snapshot, folders, options);
  if (snapshot.manifest.status === "present" && options.recordResult !== false && !options.optimistic && !frozen) await recordVerificationResult(layout, clock, featureId, report.valid);
  return report;
}

function walkSnapshot(layout: WorkspaceLayout, featureId: string, snapshot: ChainSnapshot, folders: Set<string>, options: VerifyOptions): ChainVerifyReport {
  const expected = snapshot.manifest.status === "present" ? snapshot.manifest.entry_count : null;
  const chainFile = layout.chainFile(featureId);
  return verifyChain({
    feature_id: featureId,
    evidence_dir: layout.relative(layout.evidenceDir(featureId)),
    chain_rel_path: layout.relative(chainFile),
    manifest_rel_path: layout.relative(layout.manifestFile(featureId)),
    chain_exists: snapshot.chainSize !== null,
    manifest: snapshot.manifest,
    lines: snapshot.chainSize === null ? [] : readLinesSync(chainFile, { endOffset: snapshot.chainSize }),
    latest: snapshot.latest,
    files: workspaceReader(layout, folders),
    onProgress: options.onProgress ? (walked) => options.onProgress!(walked, expected) : undefined,
    observer: options.observer,
  });
}

/** Set the manifest's last_verified_* fields (when it exists), under the feature's evidence lock. */
export async function recordVerificationResult(layout: WorkspaceLayout, clock: Clock, featureId: string, valid: boolean): Promise<void> {
  await withLock(evidenceLockPath(layout, featureId), () => {
    const { manifest } = readManifest(layout, featureId);
    if (manifest) writeManifest(layout, featureId, { ...manifest, last_verified_at: nowIso(clock), last_verified_result: valid ? "valid" : "invalid" });
  });
}

/** Features that have a chain or a manifest, in id order. */
export function chainedFeatureIds(layout: WorkspaceLayout): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(layout.featuresDir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return entries
    .filter((e) => e.isDirectory() && idProblem(e.name) === null)
    .map((e) => e.name)
    .filter((id) => fs.existsSync(layout.chainFile(id)) || fs.existsSync(layout.manifestFile(id)))
    .sort();
}

export async function verifyAllChains(layout: WorkspaceLayout, clock: Clock, options: { onProgress?: (featureId: string, walked: number, expected: number | null) => void } = {}): Promise<ChainVerifyReport[]> {
  const reports: ChainVerifyReport[] = [];
  for (const featureId of chainedFeatureIds(layout)) {
    reports.push(await verifyFeatureChain(layout, clock, featureId, { onProgress: options.onProgress ? (w, e) => options.onProgress!(featureId, w, e) : undefined }));
  }
  return reports;
}
