// Ed25519 keys and their ids. A key id is the lowercase hex SHA-256 of the public key's
// SubjectPublicKeyInfo DER (docs/evidence.md "Keys"): `openssl pkey -pubin -outform DER | sha256sum`.
import { createPublicKey, hash, type KeyObject } from "node:crypto";

export const KEY_ID_PATTERN = /^[0-9a-f]{64}$/;
// SPKI DER of an Ed25519 key: this 12-byte prefix (SEQUENCE, AlgorithmIdentifier 1.3.101.112, BIT STRING) + 32 bytes.
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** A private key and what identifies it; the private half is never serialised by aop. */
export interface Signer {
  keyid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The 32-byte raw public key (C2SP signed notes name keys by it). */
  rawPublicKey: Buffer;
}

/** A public key verifiers trust, from the workspace's committed keys. */
export interface TrustedKey {
  keyid: string;
  publicKey: KeyObject;
  rawPublicKey: Buffer;
}

export function isEd25519(key: KeyObject): boolean {
  return key.asymmetricKeyType === "ed25519";
}

function spkiDer(publicKey: KeyObject): Buffer {
  return publicKey.export({ type: "spki", format: "der" });
}

function keyIdOf(publicKey: KeyObject): string {
  return hash("sha256", spkiDer(publicKey), "hex");
}

function rawEd25519PublicKey(publicKey: KeyObject): Buffer {
  const der = spkiDer(publicKey);
  if (der.length !== 44 || !der.subarray(0, 12).equals(ED25519_SPKI_PREFIX)) throw new TypeError("not an Ed25519 public key");
  return der.subarray(12);
}

export function trustedKey(publicKey: KeyObject): TrustedKey {
  return { keyid: keyIdOf(publicKey), publicKey, rawPublicKey: rawEd25519PublicKey(publicKey) };
}

export function signerFor(privateKey: KeyObject): Signer {
  const publicKey = createPublicKey(privateKey);
  return { ...trustedKey(publicKey), privateKey };
}
