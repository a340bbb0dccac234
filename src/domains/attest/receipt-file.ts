// attestation-receipts.txt beside the chain (docs/evidence.md, "Attestation receipts"): appended under the
// feature's evidence lock by whoever signs a chained gate run's attestation, read whole by an anchor with
// enough entries to check.
// Receipts are a cache: a receipt that cannot be written, read or authenticated only means the entry is
// checked in full, so no failure here fails a gate run or an anchor.
import { AopError } from "../../core/errors.js";
import { sha256Hex, sha256Of } from "../../core/hash.js";
import { fileSize } from "../../store/fs-probe.js";
import { appendJsonLine } from "../../store/jsonl.js";
import { readJsonlTailForAppend } from "../../store/jsonl-tail.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { baseName, evidenceLockPath, stepLogRefs } from "../evidence/index.js";
import type { GateFile } from "./attest-gate.js";
import { checkAttestationShape, expectedSubjects } from "./attestation-check.js";
import { authenticReceipts, receiptKey, receiptLine, type Receipt } from "./attestation-receipts.js";
import type { Signer } from "./ed25519-keys.js";
import { leafHash } from "./merkle-tree.js";

/** The chain entry that vouches for a gate file: its sequence and its line exactly as chain.jsonl holds it. */
export interface ChainedGate {
  sequence: number;
  line: string;
}

/** Attestation files of one gate run, as this process signed and wrote them (null: none). */
export interface SignedFiles {
  envelope: Buffer | null;
  bundle: Buffer | null;
}

/**
 * Why verification's check of these files against the chain line would not pass, or null. The signer made
 * them, so their signatures verify; what remains is the rest of that check (attestation-collector.ts): the
 * gate file hashes as chained, and every subject is a file of this run with its recorded digest.
 */
function whyNotVouched(gate: GateFile, chained: ChainedGate, files: SignedFiles): string | null {
  let entry: { artifact_rel_path?: unknown; artifact_hash?: unknown; sequence?: unknown; feature_id?: unknown };
  try {
    entry = JSON.parse(chained.line) as typeof entry;
  } catch {
    return "its chain line is not JSON";
  }
  if (entry.feature_id !== gate.feature_id || entry.sequence !== chained.sequence || entry.artifact_rel_path !== gate.rel_path) return "its chain line names another gate file";
  if (entry.artifact_hash !== sha256Of(gate.bytes)) return "the gate file does not hash as chained";
  const expected = expectedSubjects(gate.rel_path, entry.artifact_hash, stepLogRefs(gate.bytes));
  for (const [kind, bytes] of [["envelope", files.envelope], ["bundle", files.bundle]] as const) {
    if (bytes === null) continue;
    const shape = checkAttestationShape(bytes.toString("utf8"), kind, gate.rel_path, expected);
    if (!shape.ok) return shape.reason;
  }
  return null;
}

/**
 * Record that `files` are valid attestations of `gate`, chained as `chained`. Returns whether a receipt
 * was appended; `warn` says why not when something is wrong (a file the store refuses, a failed check).
 */
export async function appendAttestationReceipt(layout: WorkspaceLayout, signer: Signer, gate: GateFile, chained: ChainedGate, files: SignedFiles, warn?: (message: string) => void): Promise<boolean> {
  if (files.envelope === null && files.bundle === null) return false;
  const problem = whyNotVouched(gate, chained, files);
  if (problem !== null) {
    warn?.(`no attestation receipt for ${gate.rel_path}: ${problem} (the next anchor checks it in full)`);
    return false;
  }
  const receipt: Receipt = {
    featureId: gate.feature_id,
    sequence: chained.sequence,
    gateName: baseName(gate.rel_path),
    leaf: leafHash(Buffer.from(chained.line, "utf8")).toString("hex"),
    envelope: files.envelope === null ? null : sha256Hex(files.envelope),
    bundle: files.bundle === null ? null : sha256Hex(files.bundle),
    keyid: signer.keyid,
  };
  const file = layout.attestationReceiptsFile(gate.feature_id);
  try {
    await withLock(evidenceLockPath(layout, gate.feature_id), () => {
      // The store's tail reader: bounded, a special file or a link out of the workspace refused, and a
      // torn final line (a writer killed mid-append) cut off.
      const tail = readJsonlTailForAppend(file, 1);
      // Not fsynced: a receipt lost to a power cut costs one full check, and a damaged line is never trusted.
      appendJsonLine(file, receiptLine(receipt, tail?.lines[0] ?? null, receiptKey(signer)), { durable: false });
    });
  } catch (err) {
    if (!(err instanceof AopError)) throw err;
    warn?.(`no attestation receipt for ${gate.rel_path}: ${err.message} (the next anchor checks it in full)`);
    return false;
  }
  return true;
}

/**
 * A full check of one entry (its gate file and attestations read, their shape, an Ed25519 verification of
 * ~80 µs) costs about what reading, hashing and authenticating this many bytes of receipts does (~40 lines):
 * past that, the receipts cost more than the checks they would save (docs/evidence.md).
 */
export const RECEIPT_BYTES_PER_CHECK = 16 * 1024;

/**
 * The receipts `signer`'s key authenticates, by sequence, when they may save `checks` full checks; none
 * when the file is missing, refused or too large, or larger than those checks are worth (an anchor after
 * one more gate run checks that one attestation rather than read every receipt the history left).
 */
export function readAuthenticReceipts(layout: WorkspaceLayout, featureId: string, signer: Signer, checks: number): Map<number, Receipt> {
  const file = layout.attestationReceiptsFile(featureId);
  if ((fileSize(file) ?? 0) > checks * RECEIPT_BYTES_PER_CHECK) return new Map();
  const read = readBytesBounded(file, READ_LIMITS.attestationReceipts);
  return read.status === "ok" ? authenticReceipts(read.bytes, featureId, receiptKey(signer)) : new Map();
}
