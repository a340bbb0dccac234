// Attestation receipts (docs/evidence.md, "Attestation receipts"): the process that signs a chained gate
// run's attestation knows it is valid, and says so in one line of attestation-receipts.txt, so the first
// anchor need not check every signature again. Only the signing key's holder can write or read them: each
// line extends a hash accumulator, and the accumulator is MACed with a key derived from the private key,
// so one HMAC authenticates a whole run of lines. Pure but for crypto.
import { createHmac, createSecretKey, hash, hkdfSync, timingSafeEqual, type KeyObject } from "node:crypto";
import type { Signer } from "./ed25519-keys.js";

const HEADER = "aop-receipt-v1";
/** HKDF-SHA256 `info`: names what the derived key is for, so it can never serve another purpose. */
const HKDF_INFO = "aop attestation receipts v1: HMAC-SHA256 of the accumulator";
const HEX64 = /^[0-9a-f]{64}$/;
/** A line ends with ` <accumulator> <mac>`, both 64 hex digits; what comes before is its content. */
const TAIL = 130;
const NEWLINE = 0x0a;
const SPACE = 0x20;

/** What one receipt says: this gate run's attestation files, with these digests, verify for this chain line. */
export interface Receipt {
  featureId: string;
  sequence: number;
  /** The gate file's name (its attestation and bundle are named after it). */
  gateName: string;
  /** Hex RFC 6962 leaf hash of the entry's chain line. */
  leaf: string;
  /** Hex SHA-256 of the attestation envelope / Sigstore bundle, null for none. */
  envelope: string | null;
  bundle: string | null;
  keyid: string;
}

const derived = new WeakMap<Signer, KeyObject>();

/** The MAC key: HKDF-SHA256 of the signing key, kept in memory only (a secret KeyObject never prints its bytes). */
export function receiptKey(signer: Signer): KeyObject {
  let key = derived.get(signer);
  if (key === undefined) {
    const ikm = signer.privateKey.export({ type: "pkcs8", format: "der" });
    const okm = Buffer.from(hkdfSync("sha256", ikm, Buffer.alloc(0), HKDF_INFO, 32));
    key = createSecretKey(okm);
    ikm.fill(0);
    okm.fill(0);
    derived.set(signer, key);
  }
  return key;
}

function macOf(key: KeyObject, accHex: string): Buffer {
  return createHmac("sha256", key).update(Buffer.from(accHex, "hex")).digest();
}

function macValid(key: KeyObject, accHex: string, macHex: string): boolean {
  return HEX64.test(macHex) && timingSafeEqual(macOf(key, accHex), Buffer.from(macHex, "hex"));
}

/**
 * acc_i = SHA-256(what follows acc_{i-1} in the file up to the end of line i's content): line i-1's
 * ` <acc> <mac>` tail without its leading space, the newline, then line i's content; for a line that
 * starts afresh (`0`), its content alone. So the anchor hashes each line where it lies in the file.
 */
function accumulate(previousTail: string | null, content: string): string {
  return hash("sha256", previousTail === null ? content : `${previousTail}\n${content}`, "hex");
}

/**
 * The line recording `receipt` after `last`, the file's last complete line (null: none): it continues
 * that line's accumulator when its MAC verifies under `key`, and starts afresh otherwise (`0`), so a
 * damaged or foreign line never makes the next receipt unverifiable.
 */
export function receiptLine(receipt: Receipt, last: string | null, key: KeyObject): string {
  const tail = last !== null && last.length > TAIL ? last.slice(-(TAIL - 1)) : null;
  const continues = tail !== null && tail[64] === " " && HEX64.test(tail.slice(0, 64)) && macValid(key, tail.slice(0, 64), tail.slice(65));
  const content = `${HEADER} ${continues ? "+" : "0"} ${receipt.featureId} ${receipt.sequence} ${receipt.gateName} ${receipt.leaf} ${receipt.envelope ?? "-"} ${receipt.bundle ?? "-"} ${receipt.keyid}`;
  const acc = accumulate(continues ? tail : null, content);
  return `${content} ${acc} ${macOf(key, acc).toString("hex")}`;
}

interface ScannedLine {
  start: number;
  /** Where its content ends (the space before the accumulator). */
  contentEnd: number;
  end: number;
  /** Its stored accumulator is the hash of what it covers (accumulate). */
  consistent: boolean;
  /** It starts afresh: an authenticated run starts here. */
  fresh: boolean;
}

/** The 64 hex digits at `at` equal `hex` (no string made for the comparison). */
function hexAt(bytes: Buffer, at: number, hex: string): boolean {
  for (let j = 0; j < 64; j++) if (bytes[at + j] !== hex.charCodeAt(j)) return false;
  return true;
}

function scan(bytes: Buffer): ScannedLine[] {
  const lines: ScannedLine[] = [];
  let previous: ScannedLine | null = null;
  // A final line without a newline is a torn append (a killed writer): never part of any receipt.
  for (let start = 0, end = bytes.indexOf(NEWLINE); end !== -1; start = end + 1, end = bytes.indexOf(NEWLINE, start)) {
    const contentEnd = end - TAIL;
    if (contentEnd <= start + HEADER.length + 2 || bytes[contentEnd] !== SPACE || bytes[end - 65] !== SPACE) {
      previous = null;
      continue;
    }
    const link = bytes[start + HEADER.length + 1];
    const fresh = link === 0x30; // "0"
    // "+": from the previous line's accumulator (just after its content) to the end of this content.
    const from: number = fresh ? start : link === 0x2b && previous !== null && previous.end + 1 === start ? previous.contentEnd + 1 : -1;
    const consistent: boolean = from !== -1 && hexAt(bytes, contentEnd + 1, hash("sha256", bytes.subarray(from, contentEnd), "hex"));
    previous = { start, contentEnd, end, consistent, fresh };
    lines.push(previous);
  }
  return lines;
}

const accOf = (bytes: Buffer, line: ScannedLine) => bytes.toString("latin1", line.contentEnd + 1, line.end - 65);
const macAt = (bytes: Buffer, line: ScannedLine) => bytes.toString("latin1", line.end - 64, line.end);

/**
 * The largest index in [from, to] whose MAC verifies, or -1. Any line whose MAC verifies vouches for the
 * consistent lines back to its run's start (a writer only continues a line whose MAC it verified), so
 * the search needs no particular order among the others: normally the last line verifies at once.
 */
function lastVouching(bytes: Buffer, lines: readonly ScannedLine[], from: number, to: number, key: KeyObject): number {
  const vouches = (i: number) => macValid(key, accOf(bytes, lines[i]!), macAt(bytes, lines[i]!));
  if (vouches(to)) return to;
  let found = -1;
  for (let lo = from, hi = to - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    if (vouches(mid)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * An authenticated line's fields. Only the key's holder wrote it, with receiptLine, so its fields are
 * well-formed by construction: it is split, not validated again (10,000 of them per first anchor).
 */
function parseContent(text: string): Receipt | null {
  const f = text.split(" ");
  if (f.length !== 9) return null;
  return { featureId: f[2]!, sequence: Number(f[3]), gateName: f[4]!, leaf: f[5]!, envelope: f[6] === "-" ? null : f[6]!, bundle: f[7] === "-" ? null : f[7]!, keyid: f[8]! };
}

/**
 * The receipts of `featureId` that `key` authenticates, by sequence (the last one in the file for a
 * sequence with several). Lines it cannot authenticate — edited, forged, torn, made under another key —
 * are left out: their entries are checked in full.
 */
export function authenticReceipts(bytes: Buffer, featureId: string, key: KeyObject): Map<number, Receipt> {
  const lines = scan(bytes);
  const vouched = new Uint8Array(lines.length);
  for (let end = lines.length - 1; end >= 0; ) {
    if (!lines[end]!.consistent) {
      end--;
      continue;
    }
    let start = end;
    while (!lines[start]!.fresh && start > 0 && lines[start - 1]!.consistent) start--;
    // A "+" line whose predecessor is not consistent vouches for itself on: the predecessor was changed.
    const last = lastVouching(bytes, lines, start, end, key);
    if (last !== -1) vouched.fill(1, start, last + 1);
    end = start - 1;
  }
  const receipts = new Map<number, Receipt>();
  lines.forEach((line, i) => {
    if (vouched[i] !== 1) return;
    const receipt = parseContent(bytes.toString("latin1", line.start, line.contentEnd));
    if (receipt !== null && receipt.featureId === featureId) receipts.set(receipt.sequence, receipt);
  });
  return receipts;
}
