// C2SP signed notes (c2sp.org/signed-note) with Ed25519 signatures (type 0x01). Pure but for crypto.
// A note is UTF-8 text ending in "\n", a blank line, then lines "— <key name> base64(key hash || signature)";
// the signature covers the text including its final newline. key hash = SHA-256(name || 0x0A || 0x01 || pub)[:4].
import { createHash, sign, verify } from "node:crypto";
import type { Signer, TrustedKey } from "./ed25519-keys.js";

const ED25519_TYPE = 0x01;
const SIGNATURE_LINE = /^\u2014 ([^\s+]+) ([A-Za-z0-9+/]+={0,2})$/u;
/** Verifiers must accept at least 16 signatures; far more than that is not a note we wrote. */
const MAX_SIGNATURES = 100;

interface NoteSignature {
  name: string;
  keyHash: Buffer;
  signature: Buffer;
}

export interface ParsedNote {
  text: string;
  signatures: NoteSignature[];
}

export function noteKeyHash(name: string, rawPublicKey: Uint8Array): Buffer {
  return createHash("sha256").update(name, "utf8").update(Buffer.from([0x0a, ED25519_TYPE])).update(rawPublicKey).digest().subarray(0, 4);
}

/** Why `name` cannot name a note key, or null. */
function keyNameProblem(name: string): string | null {
  if (name === "") return "a key name must not be empty";
  if (/[\s+]/u.test(name)) return "a key name must not contain spaces or '+'";
  return null;
}

function textProblem(text: string): string | null {
  if (!text.endsWith("\n")) return "the note text does not end in a newline";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(text)) return "the note text holds control characters";
  return null;
}

export function signNote(text: string, name: string, signer: Signer): string {
  const problem = textProblem(text) ?? keyNameProblem(name);
  if (problem) throw new TypeError(problem);
  const signature = sign(null, Buffer.from(text, "utf8"), signer.privateKey);
  const blob = Buffer.concat([noteKeyHash(name, signer.rawPublicKey), signature]).toString("base64");
  return `${text}\n\u2014 ${name} ${blob}\n`;
}

/** Text and signature lines of a note, or why it is malformed. */
export function parseNote(note: string): ParsedNote | string {
  if (note.includes("\uFFFD")) return "the note is not valid UTF-8";
  const sep = note.lastIndexOf("\n\n");
  if (sep === -1) return "the note has no blank line before its signatures";
  const text = note.slice(0, sep + 1);
  const problem = textProblem(text);
  if (problem) return problem;
  const rest = note.slice(sep + 2);
  if (!rest.endsWith("\n")) return "the note's last signature line does not end in a newline";
  const lines = rest.slice(0, -1).split("\n");
  if (lines.length > MAX_SIGNATURES) return `the note has more than ${MAX_SIGNATURES} signatures`;
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    const m = SIGNATURE_LINE.exec(line);
    if (!m) return "a signature line is malformed";
    const blob = Buffer.from(m[2]!, "base64");
    if (blob.length < 5) return "a signature is too short";
    signatures.push({ name: m[1]!, keyHash: blob.subarray(0, 4), signature: blob.subarray(4) });
  }
  return { text, signatures };
}

export type NoteCheck = { status: "valid"; keyid: string } | { status: "unknown_key" } | { status: "invalid"; keyid: string };

/**
 * Signatures by unknown (name, key) pairs are ignored, as the spec requires; a known key's signature that
 * fails rejects the note; a note no known key signed is unknown.
 */
export function checkNote(note: ParsedNote, name: string, keys: Iterable<TrustedKey>): NoteCheck {
  const text = Buffer.from(note.text, "utf8");
  let valid: string | null = null;
  for (const key of keys) {
    const keyHash = noteKeyHash(name, key.rawPublicKey);
    for (const s of note.signatures) {
      if (s.name !== name || !s.keyHash.equals(keyHash)) continue;
      if (!verify(null, text, key.publicKey, s.signature)) return { status: "invalid", keyid: key.keyid };
      valid ??= key.keyid;
    }
  }
  return valid === null ? { status: "unknown_key" } : { status: "valid", keyid: valid };
}
