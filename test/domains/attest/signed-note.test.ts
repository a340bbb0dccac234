// C2SP signed notes and tlog checkpoints: the golang.org/x/mod/sumdb/note example key and signature
// reproduced byte for byte (Ed25519 is deterministic), and notes that must be refused, named for the attack.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signerFor, trustedKey } from "../../../src/domains/attest/ed25519-keys.js";
import { checkNote, noteKeyHash, parseNote, signNote, type ParsedNote } from "../../../src/domains/attest/signed-note.js";
import { formatCheckpoint, parseCheckpoint } from "../../../src/domains/attest/tlog-checkpoint.js";

// The example of golang.org/x/mod/sumdb/note: PRIVATE+KEY+PeterNeumann+c74f20a3+<base64(0x01 || seed)>.
const SEED = Buffer.from("AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz", "base64").subarray(1);
const PUBLIC = Buffer.from("ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "base64").subarray(1);
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const NOTE = TEXT + "\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";

const peter = signerFor(createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), SEED]), format: "der", type: "pkcs8" }));
const peterKey = trustedKey(createPublicKey({ key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), PUBLIC]), format: "der", type: "spki" }));
const other = trustedKey(generateKeyPairSync("ed25519").publicKey);

const parsed = (note: string) => parseNote(note) as ParsedNote;

describe("signed note: the Go vector", () => {
  it("the key's hash is c74f20a3", () => {
    expect(peter.rawPublicKey.equals(PUBLIC)).toBe(true);
    expect(noteKeyHash("PeterNeumann", PUBLIC).toString("hex")).toBe("c74f20a3");
  });

  it("signing the text reproduces the published note byte for byte", () => {
    expect(signNote(TEXT, "PeterNeumann", peter)).toBe(NOTE);
  });

  it("the published note verifies with the published public key", () => {
    expect(checkNote(parsed(NOTE), "PeterNeumann", [peterKey])).toEqual({ status: "valid", keyid: peterKey.keyid });
  });
});

describe("signed notes that must be refused", () => {
  it("text-edited (one letter)", () => {
    expect(checkNote(parsed(NOTE.replace("cryptography", "cryptographY")), "PeterNeumann", [peterKey])).toMatchObject({ status: "invalid" });
  });

  it("signature-bit-flipped", () => {
    const line = NOTE.split("\n").at(-2)!;
    const blob = Buffer.from(line.split(" ")[2]!, "base64");
    blob[10]! ^= 1;
    expect(checkNote(parsed(NOTE.replace(line, `\u2014 PeterNeumann ${blob.toString("base64")}`)), "PeterNeumann", [peterKey])).toMatchObject({ status: "invalid" });
  });

  it("unknown-key (signed by a key the verifier does not know) is not valid", () => {
    expect(checkNote(parsed(NOTE), "PeterNeumann", [other])).toEqual({ status: "unknown_key" });
  });

  it("key-name-swapped (same key, another name)", () => {
    expect(checkNote(parsed(NOTE), "Someone", [peterKey])).toEqual({ status: "unknown_key" });
  });

  it("unknown signatures beside a valid one are ignored", () => {
    const extra = signNote(TEXT, "witness.example", signerFor(generateKeyPairSync("ed25519").privateKey)).split("\n").at(-2)!;
    expect(checkNote(parsed(NOTE + extra + "\n"), "PeterNeumann", [peterKey])).toMatchObject({ status: "valid" });
  });

  it.each([
    ["no-blank-line", TEXT + "\u2014 PeterNeumann AAAA\n"],
    ["ascii-dash-instead-of-em-dash", TEXT + "\n- PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"],
    ["signature-line-without-newline", NOTE.slice(0, -1)],
    ["control-character-in-text", NOTE.replace("answer", "ans\u0007wer")],
    ["signature-too-short", TEXT + "\n\u2014 PeterNeumann AAAA\n"],
    ["key-name-with-plus", TEXT + "\n\u2014 Peter+Neumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"],
  ])("%s is malformed", (_name, note) => {
    expect(typeof parseNote(note)).toBe("string");
  });

  it("refuses to sign text without a final newline or under a name with a space", () => {
    expect(() => signNote("no newline", "k", peter)).toThrow(TypeError);
    expect(() => signNote("text\n", "a name", peter)).toThrow(TypeError);
  });
});

describe("tlog checkpoint body", () => {
  const root = Buffer.from("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=", "base64");

  it("formats and parses the C2SP example", () => {
    const text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
    expect(formatCheckpoint({ origin: "example.com/behind-the-sofa", size: 20852163, root })).toBe(text);
    expect(parseCheckpoint(text)).toEqual({ origin: "example.com/behind-the-sofa", size: 20852163, root });
  });

  it("accepts and ignores extension lines", () => {
    expect(parseCheckpoint("o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\nextension\n")).toMatchObject({ origin: "o", size: 1 });
  });

  it.each([
    ["size-with-leading-zero", "o\n01\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"],
    ["size-negative", "o\n-1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"],
    ["root-truncated", "o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2=\n"],
    ["root-missing", "o\n1\n"],
    ["no-final-newline", "o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I="],
    ["empty-origin", "\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"],
  ])("%s is refused", (_name, text) => {
    expect(typeof parseCheckpoint(text)).toBe("string");
  });
});
