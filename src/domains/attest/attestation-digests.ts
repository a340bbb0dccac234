// The attestation digests an anchor carries (docs/evidence.md, "Anchored attestation digests"): a second
// signed note beside the checkpoint, saying that every attestation of the anchor's first N entries
// verified with these file digests under these committed keys. Verification may then take an attestation
// whose bytes, chain entry and keys are all unchanged, without checking its signature again. The digests
// are the leaves of an RFC 6962 tree, so the next anchor extends it from its compact range without
// reading the earlier attestations again. Pure but for crypto.
import type { TrustedKey } from "./ed25519-keys.js";
import { originFeature } from "./anchor-origin.js";
import { frontierLength, frontierRoot, leafHashOfText } from "./merkle-tree.js";
import { checkNote, parseNote, signNote } from "./signed-note.js";
import type { Signer } from "./ed25519-keys.js";

const HEADER = "aop attestation digests v1";
const ROOT = /^[A-Za-z0-9+/]{43}=$/;
const SIZE = /^(0|[1-9][0-9]*)$/;
const KEY_IDS = /^[0-9a-f]{64}( [0-9a-f]{64})*$/;

/** What the note says, once its signature verified. */
export interface AttestationDigests {
  origin: string;
  /** Entries covered: the anchor's tree size. */
  size: number;
  /** The anchor's base64 root: the chain those entries belong to. */
  chainRoot: string;
  /** Base64 RFC 6962 root over one leaf per entry (attestationLeaf), in chain order. */
  root: string;
  /** The committed key ids when the attestations were verified, sorted. */
  keyids: string[];
}

/**
 * One entry's leaf: over the hex SHA-256 of its attestation envelope and of its Sigstore bundle, `-` for
 * a file the evidence folder does not hold.
 */
export function attestationLeaf(envelope: string | null, bundle: string | null): Buffer {
  return leafHashOfText(`${envelope ?? "-"} ${bundle ?? "-"}`);
}

export function sortedKeyIds(keys: Iterable<TrustedKey>): string[] {
  return [...keys].map((k) => k.keyid).sort();
}

export function signAttestationDigests(digests: AttestationDigests, signer: Signer): string {
  const text = `${HEADER}\n${digests.origin}\n${digests.size}\n${digests.chainRoot}\n${digests.root}\n${digests.keyids.join(" ")}\n`;
  return signNote(text, digests.origin, signer);
}

function parseText(text: string): AttestationDigests | null {
  const lines = text.slice(0, -1).split("\n");
  if (lines.length !== 6 || lines[0] !== HEADER) return null;
  const [, origin, size, chainRoot, root, keyids] = lines as [string, string, string, string, string, string];
  if (!SIZE.test(size) || !Number.isSafeInteger(Number(size)) || !ROOT.test(chainRoot) || !ROOT.test(root) || !KEY_IDS.test(keyids)) return null;
  return { origin, size: Number(size), chainRoot, root, keyids: keyids.split(" ") };
}

/**
 * The note's claims when it is well-formed, for `featureId`, signed by a committed key, and made under
 * exactly today's committed keys (a key added or removed since can change a verdict); null otherwise,
 * and verification then checks every attestation as if there were no note.
 */
export function checkAttestationDigests(note: string, featureId: string, keys: ReadonlyMap<string, TrustedKey>): AttestationDigests | null {
  const parsed = parseNote(note);
  if (typeof parsed === "string") return null;
  const digests = parseText(parsed.text);
  if (digests === null || originFeature(digests.origin) !== featureId) return null;
  if (checkNote(parsed, digests.origin, keys.values()).status !== "valid") return null;
  const today = sortedKeyIds(keys.values());
  if (today.length !== digests.keyids.length || today.some((id, i) => id !== digests.keyids[i])) return null;
  return digests;
}

/**
 * The compact range stored beside the note (unsigned), as node hashes, when it is the range of the
 * note's tree: it must give the signed root. Null otherwise.
 */
export function checkedFrontier(digests: AttestationDigests, stored: unknown): Buffer[] | null {
  if (!Array.isArray(stored) || stored.length !== frontierLength(digests.size) || !stored.every((h) => typeof h === "string" && ROOT.test(h))) return null;
  const frontier = (stored as string[]).map((h) => Buffer.from(h, "base64"));
  return frontierRoot(frontier).toString("base64") === digests.root ? frontier : null;
}
