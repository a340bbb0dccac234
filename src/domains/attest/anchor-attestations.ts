// At anchor time, the attestation digests of the entries the anchor covers (attestation-digests.ts). The
// previous anchor's digests vouch for the entries it covered (their tree grows from its compact range,
// without reading those attestations again); a newer entry whose gate run left a receipt this signer's
// key authenticates (attestation-receipts.ts) takes the receipt's digests, when the receipt is for this
// very chain line and names exactly the files the folder holds; every other attestation is checked in
// full — its gate file against the chain line, its shape and subjects, its signature. Any failure leaves
// the anchor without digests: verification then checks every signature, as it does without anchors.
import { AopError } from "../../core/errors.js";
import { sha256Hex, sha256Of } from "../../core/hash.js";
import { readFileShared } from "../../store/file-hash.js";
import { listDirIfPresent } from "../../store/fs-probe.js";
import { gateSiblingName, isSignedEvidenceName, siblingOfGateName } from "../../store/gate-file-names.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { baseName, parseEvidenceFileName, stepLogRefs } from "../evidence/index.js";
import { checkAttestationShape, expectedSubjects } from "./attestation-check.js";
import type { Receipt } from "./attestation-receipts.js";
import { attestationLeaf, signAttestationDigests, sortedKeyIds } from "./attestation-digests.js";
import { checkEnvelopeSignature } from "./dsse.js";
import type { Signer, TrustedKey } from "./ed25519-keys.js";
import { appendToFrontier, frontierRoot } from "./merkle-tree.js";
import { readAuthenticReceipts } from "./receipt-file.js";

const KINDS = ["envelope", "bundle"] as const;

interface EntryFiles {
  sequence: number;
  gatePath: string;
  artifactHash: string;
  /** The files the folder holds for this gate run, by kind. */
  files: { kind: (typeof KINDS)[number]; file: string; name: string }[];
}

/** The note and its tree's compact range; null when the folder holds no attestation at all. */
export type AnchoredDigests = { note: string; frontier: string[] } | { skipped: string } | null;

/** Where the previous anchor's digests leave off: their size and compact range. */
export interface VouchedPrefix {
  size: number;
  frontier: Buffer[];
}

class NotVouched extends Error {}

function entryFiles(layout: WorkspaceLayout, featureId: string, line: Buffer, sequence: number, present: ReadonlySet<string>): EntryFiles {
  let entry: { artifact_rel_path?: unknown; artifact_hash?: unknown };
  try {
    entry = JSON.parse(line.toString("utf8")) as typeof entry;
  } catch {
    throw new NotVouched(`entry ${sequence} of the chain is not JSON`);
  }
  const gatePath = entry?.artifact_rel_path;
  const name = typeof gatePath === "string" ? parseEvidenceFileName(baseName(gatePath)) : null;
  if (typeof gatePath !== "string" || typeof entry.artifact_hash !== "string" || name?.kind !== "gate") throw new NotVouched(`entry ${sequence} of the chain names no gate file`);
  const files: EntryFiles["files"] = [];
  for (const kind of KINDS) {
    const sibling = gateSiblingName(name.mode, name.epochMs, kind === "envelope" ? "attestation" : "bundle");
    if (present.has(sibling)) files.push({ kind, name: sibling, file: kind === "envelope" ? layout.gateAttestation(featureId, name.mode, name.epochMs) : layout.gateBundle(featureId, name.mode, name.epochMs) });
  }
  return { sequence, gatePath, artifactHash: entry.artifact_hash, files };
}

interface CheckedEntry {
  /** Hex digests of the bytes checked, by kind (null: the folder holds no such file). */
  digests: Record<(typeof KINDS)[number], string | null>;
  /** Which signature failed, if any (they are checked on the thread pool). */
  signatures: Promise<string | null>;
}

/**
 * The checks verification makes of the entry's attestations (attestation-collector.ts), on the bytes
 * whose digests the anchor signs: the gate file and the shapes at once (a failure throws), the signatures
 * on the thread pool.
 */
function checkEntry(layout: WorkspaceLayout, e: EntryFiles, keys: ReadonlyMap<string, TrustedKey>, memo: Set<string>): CheckedEntry {
  const digests: CheckedEntry["digests"] = { envelope: null, bundle: null };
  if (e.files.length === 0) return { digests, signatures: Promise.resolve(null) };
  const abs = layout.resolveInside(e.gatePath);
  const gate = abs === null ? null : readFileShared(abs, { memo });
  if (gate === null || sha256Of(gate) !== e.artifactHash) throw new NotVouched(`the evidence file of entry ${e.sequence} does not hash as chained`);
  const expected = expectedSubjects(e.gatePath, e.artifactHash, stepLogRefs(gate));
  const checks = [];
  for (const { kind, file, name } of e.files) {
    const bytes = readFileShared(file, { memo });
    if (bytes === null) throw new NotVouched(`${name} vanished while it was checked`);
    digests[kind] = sha256Hex(bytes);
    const shape = checkAttestationShape(bytes.toString("utf8"), kind, e.gatePath, expected);
    if (!shape.ok) throw new NotVouched(`${name}: ${shape.reason}`);
    checks.push(checkEnvelopeSignature(shape.envelope, keys, shape.payload).then((c) => (c.status === "valid" ? null : `${name}: its signature does not verify under the committed keys`)));
  }
  return { digests, signatures: Promise.all(checks).then((results) => results.find((f) => f !== null) ?? null) };
}

const HEX_DIGITS = Buffer.from("0123456789abcdef");

/** `hex` spells `bytes` in lowercase hex (compared in place: 10,000 of them per first anchor). */
function spells(hex: string, bytes: Buffer): boolean {
  if (hex.length !== bytes.length * 2) return false;
  for (let j = 0; j < bytes.length; j++) {
    if (hex.charCodeAt(2 * j) !== HEX_DIGITS[bytes[j]! >> 4] || hex.charCodeAt(2 * j + 1) !== HEX_DIGITS[bytes[j]! & 15]) return false;
  }
  return true;
}

/** The receipt's digests stand for the entry: it is for this chain line, and names exactly the files the folder holds. */
function receiptApplies(receipt: Receipt | undefined, leaf: Buffer, present: ReadonlySet<string>): receipt is Receipt {
  if (receipt === undefined || !spells(receipt.leaf, leaf)) return false;
  return present.has(siblingOfGateName(receipt.gateName, "attestation")) === (receipt.envelope !== null) && present.has(siblingOfGateName(receipt.gateName, "bundle")) === (receipt.bundle !== null);
}

/**
 * The signed digests for the chain's first `lines.length` entries (root `chainRoot`), or null when the
 * evidence folder holds no attestation, or why none could be made. `previous`: where the newest anchor's
 * digests leave off, when they verified and belong to the chain as it is.
 */
export async function anchorAttestationDigests(
  layout: WorkspaceLayout,
  featureId: string,
  origin: string,
  lines: readonly Buffer[],
  leaves: readonly Buffer[],
  chainRoot: string,
  keys: ReadonlyMap<string, TrustedKey>,
  signer: Signer,
  previous: VouchedPrefix | null,
): Promise<AnchoredDigests> {
  const names = listDirIfPresent(layout.evidenceDir(featureId));
  if (!names.some(isSignedEvidenceName)) return null;
  const present = new Set(names);
  // Folders found inside the workspace (containment.ts): the evidence folder is resolved once.
  const memo = new Set<string>();
  const start = previous !== null && previous.size <= lines.length ? previous.size : 0;
  const frontier = start === 0 ? [] : [...previous!.frontier];
  // Receipts made under the anchoring key, while that key is committed: what a full check would find.
  const receipts = start < lines.length && keys.has(signer.keyid) ? readAuthenticReceipts(layout, featureId, signer, lines.length - start) : new Map<number, Receipt>();
  try {
    const signatures: Promise<string | null>[] = [];
    for (let i = start; i < lines.length; i++) {
      const receipt = receipts.get(i);
      if (receiptApplies(receipt, leaves[i]!, present) && receipt.keyid === signer.keyid) {
        appendToFrontier(frontier, i, attestationLeaf(receipt.envelope, receipt.bundle));
        continue;
      }
      const checked = checkEntry(layout, entryFiles(layout, featureId, lines[i]!, i, present), keys, memo);
      appendToFrontier(frontier, i, attestationLeaf(checked.digests.envelope, checked.digests.bundle));
      signatures.push(checked.signatures);
    }
    const failed = (await Promise.all(signatures)).find((f) => f !== null);
    if (failed) throw new NotVouched(failed);
  } catch (err) {
    if (err instanceof NotVouched) return { skipped: err.message };
    if (err instanceof AopError) return { skipped: err.message }; // a file the store refuses to read
    throw err;
  }
  const note = signAttestationDigests({ origin, size: lines.length, chainRoot, root: frontierRoot(frontier).toString("base64"), keyids: sortedKeyIds(keys.values()) }, signer);
  return { note, frontier: frontier.map((h) => h.toString("base64")) };
}
