// A DSSE envelope as a Sigstore bundle v0.3 (protobuf-specs Bundle, JSON form) for offline verifiers
// such as @sigstore/verify: the key is named by `publicKey.hint`, with no transparency-log entries. Pure.
import { parseEnvelope, type DsseEnvelope } from "./dsse.js";

const BUNDLE_MEDIA_TYPE = "application/vnd.dev.sigstore.bundle.v0.3+json";

export interface SigstoreBundle {
  mediaType: typeof BUNDLE_MEDIA_TYPE;
  verificationMaterial: {
    publicKey: { hint: string };
    tlogEntries: never[];
    timestampVerificationData: { rfc3161Timestamps: never[] };
  };
  dsseEnvelope: DsseEnvelope;
}

/** The bundle of a single-signature envelope (Sigstore bundles carry exactly one DSSE signature). */
export function sigstoreBundle(envelope: DsseEnvelope): SigstoreBundle {
  if (envelope.signatures.length !== 1) throw new TypeError("a Sigstore bundle carries exactly one DSSE signature");
  return {
    mediaType: BUNDLE_MEDIA_TYPE,
    verificationMaterial: { publicKey: { hint: envelope.signatures[0]!.keyid }, tlogEntries: [], timestampVerificationData: { rfc3161Timestamps: [] } },
    dsseEnvelope: envelope,
  };
}

/** The envelope a bundle carries, with the hint as its keyid, or why `value` is not our kind of bundle. */
export function envelopeFromBundle(value: unknown): DsseEnvelope | string {
  const b = value as Record<string, unknown> | null;
  if (b === null || typeof b !== "object" || b.mediaType !== BUNDLE_MEDIA_TYPE) return "it is not a Sigstore bundle v0.3";
  const hint = ((b.verificationMaterial as Record<string, unknown> | undefined)?.publicKey as Record<string, unknown> | undefined)?.hint;
  if (typeof hint !== "string" || hint === "") return "its verification material names no public key hint";
  const envelope = parseEnvelope(b.dsseEnvelope);
  if (typeof envelope === "string") return `its DSSE envelope is malformed: ${envelope}`;
  if (envelope.signatures.length !== 1) return "it must carry exactly one DSSE signature";
  return { ...envelope, signatures: [{ keyid: hint, sig: envelope.signatures[0]!.sig }] };
}
