// `aop evidence anchor`: sign a checkpoint of a feature's chain and append it to anchors.jsonl, optionally
// committing it on refs/aop/anchors. Like a transparency log, it never signs a checkpoint inconsistent with
// the newest one it holds: a chain that no longer reproduces its last anchor is refused, not re-anchored.
import path from "node:path";
import type { Clock } from "../../core/clock.js";
import { nowIso } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { evidenceLockPath, readCountedChainLocked, requireFeatureDir } from "../evidence/index.js";
import { checkAnchor } from "./anchor-check.js";
import { anchorAttestationDigests, type VouchedPrefix } from "./anchor-attestations.js";
import { appendAnchorLocked, readNewestAnchor, type AnchorRecord } from "./anchor-file.js";
import { checkAttestationDigests, checkedFrontier } from "./attestation-digests.js";
import { anchorOrigin } from "./anchor-origin.js";
import type { Signer, TrustedKey } from "./ed25519-keys.js";
import { commitAnchorToGit, type GitAnchorCommit } from "./git-anchor-ref.js";
import { leafHash, merkleRoot } from "./merkle-tree.js";
import { signNote } from "./signed-note.js";
import { formatCheckpoint } from "./tlog-checkpoint.js";

export interface AnchorResult {
  feature_id: string;
  /** False when the newest anchor already covers the chain as it is (nothing new to sign). */
  created: boolean;
  anchors_path: string;
  origin: string;
  tree_size: number;
  root: string;
  keyid: string;
  anchored_at: string;
  note: string;
  git: GitAnchorCommit | null;
}

export interface AnchorOptions {
  git?: boolean;
  durable?: boolean;
  warn?: (message: string) => void;
}

function anchorRefused(featureId: string, reason: string, code: AopError["code"], details: Record<string, unknown>): AopError {
  return new AopError(code, `feature '${featureId}' was not anchored: ${reason}`, {
    details: { feature_id: featureId, ...details },
    hint: `inspect with \`aop evidence verify --feature-id ${featureId}\`; a new anchor is only signed over a chain that still reproduces the last one`,
  });
}

/** Where the newest anchor's attestation digests leave off, when they hold for the chain it anchored. */
function vouchedPrefix(record: AnchorRecord, featureId: string, trusted: ReadonlyMap<string, TrustedKey>, size: number, root: string): VouchedPrefix | null {
  const digests = record.attestations === undefined ? null : checkAttestationDigests(record.attestations, featureId, trusted);
  if (digests === null || digests.size !== size || digests.chainRoot !== root) return null;
  const frontier = checkedFrontier(digests, record.attestations_frontier);
  return frontier === null ? null : { size, frontier };
}

export async function anchorFeature(layout: WorkspaceLayout, clock: Clock, signer: Signer, trustedKeys: Iterable<TrustedKey>, featureId: string, options: AnchorOptions = {}): Promise<AnchorResult> {
  validateId("feature_id", featureId);
  requireFeatureDir(layout, featureId);
  const origin = anchorOrigin(path.basename(layout.root), featureId);
  const trusted = new Map([...trustedKeys].map((k) => [k.keyid, k]));
  const made = await withLock(evidenceLockPath(layout, featureId), async (): Promise<AnchorResult> => {
    const chain = readCountedChainLocked(layout, featureId);
    const leaves = chain.lines.map((line) => leafHash(line));
    const root = merkleRoot(leaves).toString("base64");
    const newest = readNewestAnchor(layout, featureId);
    const result = (created: boolean, keyid: string, anchoredAt: string, note: string): AnchorResult => ({
      feature_id: featureId,
      created,
      anchors_path: layout.relative(layout.anchorsFile(featureId)),
      origin,
      tree_size: chain.entry_count,
      root,
      keyid,
      anchored_at: anchoredAt,
      note,
      git: null,
    });
    let previous: VouchedPrefix | null = null;
    if (newest.status === "malformed") throw anchorRefused(featureId, `the newest anchor ${newest.reason}`, "evidence_anchor_malformed", {});
    if (newest.status === "present") {
      const verdict = checkAnchor(newest.record.note, featureId, trusted.values(), leaves);
      if (!verdict.valid) throw anchorRefused(featureId, verdict.failure_reason!, verdict.failure_code!, { anchored_root: verdict.root, current_root: verdict.current_root, anchored_size: verdict.tree_size });
      if (verdict.tree_size === chain.entry_count) {
        return result(false, verdict.keyid!, newest.record.anchored_at, newest.record.note);
      }
      previous = vouchedPrefix(newest.record, featureId, trusted, verdict.tree_size!, verdict.root!);
    }
    const note = signNote(formatCheckpoint({ origin, size: chain.entry_count, root: Buffer.from(root, "base64") }), origin, signer);
    const digests = await anchorAttestationDigests(layout, featureId, origin, chain.lines, leaves, root, trusted, signer, previous);
    if (digests !== null && "skipped" in digests) options.warn?.(`the anchor of '${featureId}' carries no attestation digests (verification checks every signature): ${digests.skipped}`);
    const anchoredAt = nowIso(clock);
    const record: AnchorRecord = { anchored_at: anchoredAt, keyid: signer.keyid, note, ...(digests !== null && "note" in digests ? { attestations: digests.note, attestations_frontier: digests.frontier } : {}) };
    appendAnchorLocked(layout, featureId, record, { durable: options.durable, warn: options.warn });
    return result(true, signer.keyid, anchoredAt, note);
  });
  if (!options.git) return made;
  // Outside the evidence lock: the ref update is its own compare-and-swap.
  const message = `aop anchor ${featureId}: ${made.tree_size} entries\n\n${made.note}`;
  return { ...made, git: await commitAnchorToGit(layout.root, featureId, { note: made.note, treeSize: made.tree_size }, message) };
}
