// DSSE envelopes: the PAE of the DSSE spec's example, signing and verifying, and envelopes that must fail.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkEnvelopeSignature, parseEnvelope, preAuthEncoding, signEnvelope, type DsseEnvelope } from "../../../src/domains/attest/dsse.js";
import { signerFor, trustedKey } from "../../../src/domains/attest/ed25519-keys.js";

const signer = signerFor(generateKeyPairSync("ed25519").privateKey);
const keys = new Map([[signer.keyid, trustedKey(signer.publicKey)]]);
const envelope = signEnvelope("application/vnd.in-toto+json", Buffer.from('{"_type":"x"}'), signer);
const clone = (): DsseEnvelope => JSON.parse(JSON.stringify(envelope)) as DsseEnvelope;

describe("DSSE", () => {
  it("PAE of the spec's example (lengths are byte counts)", () => {
    expect(preAuthEncoding("http://example.com/HelloWorld", Buffer.from("hello world")).toString()).toBe("DSSEv1 29 http://example.com/HelloWorld 11 hello world");
    expect(preAuthEncoding("t", Buffer.from("é")).toString()).toBe("DSSEv1 1 t 2 é");
  });

  it("a signed envelope verifies with the signer's public key", async () => {
    expect(await checkEnvelopeSignature(envelope, keys)).toEqual({ status: "valid", keyid: signer.keyid });
    expect(parseEnvelope(JSON.parse(JSON.stringify(envelope)))).toEqual(envelope);
  });

  it("payload-replaced", async () => {
    const e = clone();
    e.payload = Buffer.from('{"_type":"y"}').toString("base64");
    expect(await checkEnvelopeSignature(e, keys)).toMatchObject({ status: "invalid" });
  });

  it("payload-type-replaced", async () => {
    expect(await checkEnvelopeSignature({ ...clone(), payloadType: "application/json" }, keys)).toMatchObject({ status: "invalid" });
  });

  it("signed-by-unknown-key", async () => {
    const stranger = signerFor(generateKeyPairSync("ed25519").privateKey);
    expect(await checkEnvelopeSignature(signEnvelope("t", Buffer.from("x"), stranger), keys)).toEqual({ status: "unknown_key", keyid: stranger.keyid });
  });

  it("keyid-relabelled (a stranger's signature under our keyid)", async () => {
    const stranger = signerFor(generateKeyPairSync("ed25519").privateKey);
    const forged = signEnvelope("application/vnd.in-toto+json", Buffer.from('{"_type":"x"}'), stranger);
    forged.signatures[0]!.keyid = signer.keyid;
    expect(await checkEnvelopeSignature(forged, keys)).toMatchObject({ status: "invalid" });
  });

  it("a signature without keyid is tried against every trusted key", async () => {
    const e = clone();
    e.signatures[0]!.keyid = "";
    expect(await checkEnvelopeSignature(e, keys)).toEqual({ status: "valid", keyid: signer.keyid });
  });

  it.each([
    ["not-an-object", []],
    ["no-signatures", { payloadType: "t", payload: "", signatures: [] }],
    ["payload-not-base64", { payloadType: "t", payload: "!!!", signatures: [{ keyid: "k", sig: "AAAA" }] }],
    ["sig-not-base64", { payloadType: "t", payload: "", signatures: [{ keyid: "k", sig: "%%" }] }],
  ])("%s is malformed", (_name, value) => {
    expect(typeof parseEnvelope(value)).toBe("string");
  });
});
