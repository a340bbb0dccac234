// `aop evidence prove`: an RFC 9162 inclusion proof for one chain entry. Against the newest anchor when it
// covers the entry (then also as a C2SP tlog proof a third party verifies offline), else against today's
// chain, whose root nobody has signed yet.
import { AopError } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readFileBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { completeLines, requireFeatureDir } from "../evidence/index.js";
import { checkAnchor } from "./anchor-check.js";
import { readNewestAnchor } from "./anchor-file.js";
import type { TrustedKey } from "./ed25519-keys.js";
import { inclusionProof, leafHash, merkleRoot } from "./merkle-tree.js";
import { formatTlogProof } from "./tlog-proof.js";

export interface InclusionProofReport {
  feature_id: string;
  sequence: number;
  /** The chain line (without its newline): the leaf's data. */
  leaf: string;
  leaf_hash: string;
  tree_size: number;
  root: string;
  /** Base64 sibling hashes from the leaf up (RFC 6962 PATH). */
  proof: string[];
  /** The signed checkpoint the proof leads to, or null when no anchor covers the entry. */
  checkpoint: string | null;
  tlog_proof: string | null;
}

export function proveEntry(layout: WorkspaceLayout, keys: Iterable<TrustedKey>, featureId: string, sequence: number): InclusionProofReport {
  validateId("feature_id", featureId);
  requireFeatureDir(layout, featureId);
  const bytes = readFileBounded(layout.chainFile(featureId), READ_LIMITS.chainWhole);
  if (bytes === null) throw new AopError("evidence_chain_missing", `feature '${featureId}' has no integrity chain`, { details: { feature_id: featureId } });
  const lines = completeLines(bytes);
  if (sequence >= lines.length) {
    throw new AopError("invalid_argument", `the chain of '${featureId}' has ${lines.length} entries; there is no sequence ${sequence}`, { details: { feature_id: featureId, sequence, entry_count: lines.length } });
  }
  const leaves = lines.map((l) => leafHash(l));
  const newest = readNewestAnchor(layout, featureId);
  let size = lines.length;
  let checkpoint: string | null = null;
  if (newest.status === "malformed") {
    throw new AopError("evidence_anchor_malformed", `the newest anchor of '${featureId}' cannot be read: ${newest.reason}`, { details: { feature_id: featureId } });
  }
  if (newest.status === "present") {
    const verdict = checkAnchor(newest.record.note, featureId, keys, leaves);
    if (!verdict.valid) {
      throw new AopError(verdict.failure_code!, `the newest anchor of '${featureId}' does not hold: ${verdict.failure_reason}`, {
        details: { feature_id: featureId, anchored_root: verdict.root, current_root: verdict.current_root, anchored_size: verdict.tree_size },
        hint: `inspect with \`aop evidence verify --feature-id ${featureId}\``,
      });
    }
    if (verdict.tree_size! > sequence) {
      size = verdict.tree_size!;
      checkpoint = newest.record.note;
    }
  }
  const proof = inclusionProof(leaves, sequence, size);
  return {
    feature_id: featureId,
    sequence,
    leaf: lines[sequence]!.toString("utf8"),
    leaf_hash: leaves[sequence]!.toString("base64"),
    tree_size: size,
    root: merkleRoot(leaves, size).toString("base64"),
    proof: proof.map((p) => p.toString("base64")),
    checkpoint,
    tlog_proof: checkpoint === null ? null : formatTlogProof(sequence, proof, checkpoint),
  };
}
