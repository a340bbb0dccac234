// Checking one attestation file against the gate it belongs to, before its signature: the envelope
// parses, carries an in-toto statement, and every subject's digest is the digest of that file now. Pure.
import { decodeBase64, IN_TOTO_PAYLOAD_TYPE, parseEnvelope, type DsseEnvelope } from "./dsse.js";
import { bareHex, statementSubjects } from "./in-toto-statement.js";
import { envelopeFromBundle } from "./sigstore-bundle.js";
import type { LogRef } from "../evidence/index.js";

export type AttestationFailureCode = "evidence_attestation_malformed" | "evidence_attestation_subject_mismatch" | "evidence_signature_invalid" | "evidence_signing_key_unknown";

export type AttestationShape = { ok: true; envelope: DsseEnvelope; payload: Buffer } | { ok: false; code: AttestationFailureCode; reason: string };

/** The files a chained gate vouches for, with their digests: its evidence file and each step log it names with one. */
export function expectedSubjects(gatePath: string, artifactHash: string, logs: readonly LogRef[]): Map<string, string> {
  const expected = new Map<string, string>([[gatePath, artifactHash]]);
  for (const log of logs) if (typeof log.log_sha256 === "string") expected.set(log.log_path, log.log_sha256);
  return expected;
}

/**
 * `expected` maps each file the gate vouches for (its evidence file and step logs) to its digest as
 * verified today; `gatePath` must be a subject, and no subject may name anything else.
 */
export function checkAttestationShape(text: string, kind: "envelope" | "bundle", gatePath: string, expected: ReadonlyMap<string, string>): AttestationShape {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: "evidence_attestation_malformed", reason: "it is not JSON" };
  }
  const envelope = kind === "bundle" ? envelopeFromBundle(value) : parseEnvelope(value);
  if (typeof envelope === "string") return { ok: false, code: "evidence_attestation_malformed", reason: envelope };
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) return { ok: false, code: "evidence_attestation_malformed", reason: `its payloadType is '${envelope.payloadType.slice(0, 80)}', not ${IN_TOTO_PAYLOAD_TYPE}` };
  const payload = decodeBase64(envelope.payload)!;
  const subjects = statementSubjects(payload);
  if (typeof subjects === "string") return { ok: false, code: "evidence_attestation_malformed", reason: subjects };
  if (!expected.has(gatePath)) return { ok: false, code: "evidence_attestation_subject_mismatch", reason: `the gate file it belongs to, ${gatePath}, is missing` };
  if (!subjects.some((s) => s.name === gatePath)) return { ok: false, code: "evidence_attestation_subject_mismatch", reason: `it does not attest ${gatePath}` };
  for (const subject of subjects) {
    const digest = expected.get(subject.name);
    if (digest === undefined) return { ok: false, code: "evidence_attestation_subject_mismatch", reason: `it attests ${subject.name.slice(0, 200)}, which is not part of this gate run` };
    if (bareHex(digest) !== subject.digest.sha256) return { ok: false, code: "evidence_attestation_subject_mismatch", reason: `${subject.name} has digest ${subject.digest.sha256.slice(0, 12)}… in the attestation but ${bareHex(digest).slice(0, 12)}… on disk` };
  }
  return { ok: true, envelope, payload };
}
