// RFC 6962 §2.1 Merkle tree hashing (the tree RFC 9162 and every transparency log use). Pure.
// leaf = SHA-256(0x00 || data), node = SHA-256(0x01 || left || right), MTH({}) = SHA-256("").
import { hash } from "node:crypto";

// One-shot hashes over reused scratch buffers: a 10,000-entry anchor hashes ~20,000 times, and a Hash
// object per call costs about twice as much (docs/performance.md).
let leafScratch = Buffer.allocUnsafe(1024);
const nodeScratch = Buffer.alloc(65);

export function leafHash(data: Uint8Array): Buffer {
  const length = data.length + 1;
  if (leafScratch.length < length) leafScratch = Buffer.allocUnsafe(length * 2);
  leafScratch[0] = 0x00;
  leafScratch.set(data, 1);
  return hash("sha256", leafScratch.subarray(0, length), "buffer");
}

/** leafHash of a string's UTF-8 bytes, encoded straight into the scratch buffer (a verifier hashes every chain line). */
export function leafHashOfText(text: string): Buffer {
  const most = text.length * 3 + 1;
  if (leafScratch.length < most) leafScratch = Buffer.allocUnsafe(most * 2);
  leafScratch[0] = 0x00;
  const length = leafScratch.write(text, 1, "utf8") + 1;
  return hash("sha256", leafScratch.subarray(0, length), "buffer");
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  if (left.length !== 32 || right.length !== 32) throw new RangeError("node hashes combine two 32-byte hashes");
  nodeScratch[0] = 0x01;
  nodeScratch.set(left, 1);
  nodeScratch.set(right, 33);
  return hash("sha256", nodeScratch, "buffer");
}

export function emptyTreeRoot(): Buffer {
  return hash("sha256", Buffer.alloc(0), "buffer");
}

/** The largest power of two strictly below `n` (n ≥ 2): where RFC 6962 splits a tree of n leaves. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * MTH over the first `size` leaf hashes (default all). Level by level, pairing neighbours and carrying an
 * unpaired last node up unchanged: the same tree as the RFC's recursive split, in O(n) without recursion.
 */
export function merkleRoot(leaves: readonly Uint8Array[], size = leaves.length): Buffer {
  if (size < 0 || size > leaves.length) throw new RangeError(`tree size ${size} outside 0..${leaves.length}`);
  if (size === 0) return emptyTreeRoot();
  let level: Uint8Array[] = leaves.slice(0, size);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(nodeHash(level[i]!, level[i + 1]!));
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    level = next;
  }
  return Buffer.from(level[0]!);
}

/**
 * A tree's compact range: the roots of the perfect subtrees its leaves split into, largest first (one per
 * set bit of the size). Appending a leaf merges equal subtrees like a carry; the root is their right fold.
 * This lets a tree grow without its earlier leaves.
 */
export function appendToFrontier(frontier: Buffer[], size: number, leaf: Buffer): void {
  frontier.push(leaf);
  for (let s = size; s % 2 === 1; s = Math.floor(s / 2)) {
    const right = frontier.pop()!;
    frontier.push(nodeHash(frontier.pop()!, right));
  }
}

/** MTH of the tree whose compact range is `frontier` (the same root merkleRoot gives over its leaves). */
export function frontierRoot(frontier: readonly Buffer[]): Buffer {
  if (frontier.length === 0) return emptyTreeRoot();
  let root = frontier[frontier.length - 1]!;
  for (let i = frontier.length - 2; i >= 0; i--) root = nodeHash(frontier[i]!, root);
  return root;
}

/** How many subtrees a compact range of `size` leaves holds. */
export function frontierLength(size: number): number {
  let n = 0;
  for (let s = size; s > 0; s = Math.floor(s / 2)) n += s % 2;
  return n;
}

/** PATH(m, D[n]) of RFC 6962 §2.1.1: the sibling hashes from the leaf up, for leaf `index` of the first `size`. */
export function inclusionProof(leaves: readonly Uint8Array[], index: number, size = leaves.length): Buffer[] {
  if (!Number.isSafeInteger(index) || index < 0 || index >= size || size > leaves.length) {
    throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  }
  const path = (m: number, start: number, n: number): Buffer[] => {
    if (n === 1) return [];
    const k = splitPoint(n);
    return m < k
      ? [...path(m, start, k), merkleRoot(leaves.slice(start + k, start + n))]
      : [...path(m - k, start + k, n - k), merkleRoot(leaves.slice(start, start + k))];
  };
  return path(index, 0, size);
}
