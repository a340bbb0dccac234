// Verifying an RFC 9162 §2.1.3.2 inclusion proof: recompute the root a proof leads to. Pure.
// Kept apart from tree building so the verifier cannot lean on the code that made the proof.
import { nodeHash } from "./merkle-tree.js";

export type InclusionCheck = { ok: true; root: Buffer } | { ok: false; reason: string };

/** The root that `proof` yields for `leaf` at `index` in a tree of `size`, or why the proof is malformed. */
export function rootFromInclusionProof(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[]): InclusionCheck {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) {
    return { ok: false, reason: `index ${index} is outside a tree of ${size}` };
  }
  if (leaf.length !== 32 || proof.some((p) => p.length !== 32)) return { ok: false, reason: "a leaf or proof hash is not 32 bytes" };
  let fn = index;
  let sn = size - 1;
  let r: Uint8Array = leaf;
  for (const p of proof) {
    if (sn === 0) return { ok: false, reason: "the proof is longer than the tree is deep" };
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) return { ok: false, reason: "the proof is shorter than the tree is deep" };
  return { ok: true, root: Buffer.from(r) };
}

/** True when `proof` shows `leaf` at `index` in the tree of `size` whose root is `root`. */
export function verifyInclusion(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  const check = rootFromInclusionProof(index, size, leaf, proof);
  return check.ok && check.root.equals(root);
}
