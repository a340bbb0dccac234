// @sigstore/verify (3.1.x, the Node 20 line) verifies the Sigstore bundle `aop evidence attest --bundle`
// exports, offline: an empty trusted root, the committed public key found by the bundle's hint, and zero
// transparency-log, CT-log and timestamp thresholds. Tampered bundles are rejected.
import fs from "node:fs";
import path from "node:path";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { bundleFromJSON } from "@sigstore/bundle";
import { PublicKeyDetails, TrustedRoot } from "@sigstore/protobuf-specs";
import { toSignedEntity, toTrustMaterial, Verifier } from "@sigstore/verify";
import { beforeAll, describe, expect, it } from "vitest";
import { signedWorkspace, type SignedWorkspace } from "../../helpers/attest.js";
import { tempDir } from "../../helpers/tmp.js";

type BundleJson = { mediaType: string; verificationMaterial: { publicKey: { hint: string } }; dsseEnvelope: { payload: string; payloadType: string; signatures: { sig: string }[] } };

let ws: SignedWorkspace;
let bundle: BundleJson;
let spkiDer: Buffer;

function verify(json: unknown, keyDer = spkiDer) {
  const trust = toTrustMaterial(TrustedRoot.fromJSON({ mediaType: "application/vnd.dev.sigstore.trustedroot.v0.2+json" }), {
    [ws.key.keyid]: { rawBytes: keyDer, keyDetails: PublicKeyDetails.PKIX_ED25519, validFor: undefined },
  });
  return new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundleFromJSON(json)));
}
/** The code of the VerificationError verify throws (or "verified"). */
function rejection(json: unknown, keyDer = spkiDer): string {
  try {
    verify(json, keyDer);
    return "verified";
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}
const clone = (): BundleJson => JSON.parse(JSON.stringify(bundle)) as BundleJson;

beforeAll(() => {
  ws = signedWorkspace({ policy: { attest: false } });
  expect(ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]).code).toBe(0);
  const out = path.join(tempDir("aop-bundle-"), "gate.sigstore.json");
  const r = ws.cli(["evidence", "attest", "--feature-id", "feat_a", "--bundle", "--out", out]);
  expect(r.code, r.stderr).toBe(0);
  bundle = JSON.parse(fs.readFileSync(out, "utf8"));
  spkiDer = createPublicKey(fs.readFileSync(ws.abs(`agentic/orchestrator/keys/${ws.key.keyid}.pub`))).export({ type: "spki", format: "der" });
});

describe("@sigstore/verify on the exported bundle", () => {
  it("verifies offline with the committed public key and zero thresholds", () => {
    expect(bundle.mediaType).toBe("application/vnd.dev.sigstore.bundle.v0.3+json");
    expect(bundle.verificationMaterial.publicKey.hint).toBe(ws.key.keyid);
    expect(verify(bundle).key?.asymmetricKeyType).toBe("ed25519");
    const statement = JSON.parse(Buffer.from(bundle.dsseEnvelope.payload, "base64").toString());
    expect(statement).toMatchObject({ _type: "https://in-toto.io/Statement/v1", predicateType: "https://in-toto.io/attestation/test-result/v0.1", predicate: { result: "PASSED", passedTests: ["unit", "lint"], failedTests: [] } });
  });

  it("the bundle written beside the evidence is the same bundle", () => {
    const beside = fs.readdirSync(ws.abs(".aop/features/feat_a/evidence")).find((n) => n.endsWith(".sigstore.json"))!;
    expect(JSON.parse(fs.readFileSync(ws.abs(`.aop/features/feat_a/evidence/${beside}`), "utf8"))).toEqual(bundle);
  });

  it("payload-edited (FAILED made PASSED or any other change) is rejected", () => {
    const t = clone();
    t.dsseEnvelope.payload = Buffer.from(Buffer.from(t.dsseEnvelope.payload, "base64").toString().replace("PASSED", "FAILED")).toString("base64");
    expect(rejection(t)).toBe("SIGNATURE_ERROR");
  });

  it("signature-bit-flipped is rejected", () => {
    const t = clone();
    const sig = Buffer.from(t.dsseEnvelope.signatures[0]!.sig, "base64");
    sig[5]! ^= 1;
    t.dsseEnvelope.signatures[0]!.sig = sig.toString("base64");
    expect(rejection(t)).toBe("SIGNATURE_ERROR");
  });

  it("payload-type-changed is rejected", () => {
    const t = clone();
    t.dsseEnvelope.payloadType = "application/json";
    expect(rejection(t)).toBe("SIGNATURE_ERROR");
  });

  it("hint-for-unknown-key is rejected", () => {
    const t = clone();
    t.verificationMaterial.publicKey.hint = "0".repeat(64);
    expect(rejection(t)).toBe("PUBLIC_KEY_ERROR");
  });

  it("verified-with-another-key is rejected", () => {
    const other = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "der" });
    expect(rejection(bundle, other)).toBe("SIGNATURE_ERROR");
  });
});
