// DSSE v1 envelopes (github.com/secure-systems-lab/dsse): the signature covers the pre-authentication
// encoding PAE = "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in bytes. Pure but for crypto.
import { sign, verify } from "node:crypto";
import type { Signer, TrustedKey } from "./ed25519-keys.js";

export const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";

interface DsseSignature {
  keyid: string;
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: DsseSignature[];
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

export function preAuthEncoding(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

export function signEnvelope(payloadType: string, payload: Uint8Array, signer: Signer): DsseEnvelope {
  const sig = sign(null, preAuthEncoding(payloadType, payload), signer.privateKey);
  return { payloadType, payload: Buffer.from(payload).toString("base64"), signatures: [{ keyid: signer.keyid, sig: sig.toString("base64") }] };
}

function isBase64(text: unknown): text is string {
  return typeof text === "string" && text.length % 4 !== 1 && BASE64.test(text);
}

/** Base64 (standard or URL-safe, as DSSE allows) to bytes, or null for anything else. */
export function decodeBase64(text: unknown): Buffer | null {
  return isBase64(text) ? Buffer.from(text, "base64") : null;
}

/** The envelope, or why `value` is not one. */
export function parseEnvelope(value: unknown): DsseEnvelope | string {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "it is not a JSON object";
  const e = value as Record<string, unknown>;
  if (typeof e.payloadType !== "string" || e.payloadType === "") return "it has no payloadType";
  if (!isBase64(e.payload)) return "its payload is not base64";
  if (!Array.isArray(e.signatures) || e.signatures.length === 0) return "it has no signatures";
  for (const s of e.signatures as Record<string, unknown>[]) {
    if (s === null || typeof s !== "object") return "a signature is not an object";
    if (s.keyid !== undefined && typeof s.keyid !== "string") return "a signature's keyid is not a string";
    if (!isBase64(s.sig)) return "a signature is not base64";
  }
  return { payloadType: e.payloadType, payload: e.payload as string, signatures: (e.signatures as DsseSignature[]).map((s) => ({ keyid: s.keyid ?? "", sig: s.sig })) };
}

export type SignatureCheck = { status: "valid"; keyid: string } | { status: "unknown_key"; keyid: string } | { status: "invalid"; keyid: string };

interface Candidate {
  key: TrustedKey;
  sig: Buffer;
}

/** The signatures made by trusted keys (a signature without keyid is tried against every key). */
function candidates(envelope: DsseEnvelope, keys: ReadonlyMap<string, TrustedKey>): Candidate[] {
  const out: Candidate[] = [];
  for (const s of envelope.signatures) {
    const sig = decodeBase64(s.sig)!;
    if (s.keyid === "") for (const key of keys.values()) out.push({ key, sig });
    else if (keys.has(s.keyid)) out.push({ key: keys.get(s.keyid)!, sig });
  }
  return out;
}

function firstKeyid(envelope: DsseEnvelope): string {
  return envelope.signatures.find((s) => s.keyid !== "")?.keyid ?? "";
}

/** Ed25519 verification on the libuv thread pool: a verifier can have thousands in flight while it reads on. */
function verifyOnPool(key: TrustedKey, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => verify(null, message, key.publicKey, signature, (err, ok) => resolve(!err && ok)));
}

/** Valid when a trusted key's signature verifies and none fails; unknown when no signature names a trusted key. */
export async function checkEnvelopeSignature(envelope: DsseEnvelope, keys: ReadonlyMap<string, TrustedKey>, payload = decodeBase64(envelope.payload)!): Promise<SignatureCheck> {
  const found = candidates(envelope, keys);
  if (found.length === 0) return { status: "unknown_key", keyid: firstKeyid(envelope) };
  const pae = preAuthEncoding(envelope.payloadType, payload);
  const results = await Promise.all(found.map((c) => verifyOnPool(c.key, pae, c.sig)));
  const anonymous = envelope.signatures.every((s) => s.keyid === "");
  if (anonymous) {
    const i = results.indexOf(true);
    return i === -1 ? { status: "invalid", keyid: "" } : { status: "valid", keyid: found[i]!.key.keyid };
  }
  const bad = results.indexOf(false);
  return bad === -1 ? { status: "valid", keyid: found[0]!.key.keyid } : { status: "invalid", keyid: found[bad]!.key.keyid };
}
