// Checking a signed checkpoint against today's chain. Pure: the note, the trusted keys and the chain's
// leaf hashes in; a verdict with the anchored and current values out.
import type { TrustedKey } from "./ed25519-keys.js";
import { merkleRoot } from "./merkle-tree.js";
import { originFeature } from "./anchor-origin.js";
import { checkNote, parseNote } from "./signed-note.js";
import { parseCheckpoint } from "./tlog-checkpoint.js";

export type AnchorFailureCode = "evidence_anchor_malformed" | "evidence_signature_invalid" | "evidence_signing_key_unknown" | "evidence_chain_anchor_mismatch";

export interface AnchorVerdict {
  valid: boolean;
  failure_code: AnchorFailureCode | null;
  failure_reason: string | null;
  origin: string | null;
  /** What the checkpoint says: its tree size and base64 root. */
  tree_size: number | null;
  root: string | null;
  /** The root today's first tree_size entries give (null when the chain is shorter). */
  current_root: string | null;
  keyid: string | null;
}

const EMPTY: AnchorVerdict = { valid: false, failure_code: null, failure_reason: null, origin: null, tree_size: null, root: null, current_root: null, keyid: null };

function fail(verdict: AnchorVerdict, code: AnchorFailureCode, reason: string): AnchorVerdict {
  return { ...verdict, valid: false, failure_code: code, failure_reason: reason };
}

export function checkAnchor(noteText: string, featureId: string, keys: Iterable<TrustedKey>, leaves: readonly Uint8Array[]): AnchorVerdict {
  const note = parseNote(noteText);
  if (typeof note === "string") return fail(EMPTY, "evidence_anchor_malformed", `the anchor is not a signed note: ${note}`);
  const checkpoint = parseCheckpoint(note.text);
  if (typeof checkpoint === "string") return fail(EMPTY, "evidence_anchor_malformed", `the anchor is not a checkpoint: ${checkpoint}`);
  let verdict: AnchorVerdict = { ...EMPTY, origin: checkpoint.origin, tree_size: checkpoint.size, root: checkpoint.root.toString("base64") };
  const named = originFeature(checkpoint.origin);
  if (named !== featureId) return fail(verdict, "evidence_chain_anchor_mismatch", `the anchor's origin '${checkpoint.origin}' is not for feature '${featureId}'`);
  const signature = checkNote(note, checkpoint.origin, keys);
  if (signature.status === "unknown_key") return fail(verdict, "evidence_signing_key_unknown", "no committed public key signed the anchor");
  verdict = { ...verdict, keyid: signature.keyid };
  if (signature.status === "invalid") return fail(verdict, "evidence_signature_invalid", `the anchor's signature by key ${signature.keyid.slice(0, 12)}… does not verify`);
  if (checkpoint.size > leaves.length) {
    return fail(verdict, "evidence_chain_anchor_mismatch", `the anchor covers ${checkpoint.size} entries but the chain has ${leaves.length}: entries anchored earlier are gone`);
  }
  const current = merkleRoot(leaves, checkpoint.size);
  verdict = { ...verdict, current_root: current.toString("base64") };
  if (!current.equals(checkpoint.root)) {
    return fail(verdict, "evidence_chain_anchor_mismatch", `the first ${checkpoint.size} entries no longer give the anchored root: the chain was rewritten`);
  }
  return { ...verdict, valid: true };
}
