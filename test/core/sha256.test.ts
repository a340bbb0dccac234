import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { sha256HexJs } from "../../src/core/sha256.js";
import { hashCanonicalCold } from "../../src/core/hash.js";
import { canonicalJson } from "../../src/core/canonical-json.js";

const reference = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("SHA-256 in JavaScript", () => {
  it("gives the FIPS 180-4 digests of the standard test messages", () => {
    expect(sha256HexJs(Buffer.from(""))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256HexJs(Buffer.from("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256HexJs(Buffer.from("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  });

  it("agrees with node:crypto on every length up to five blocks (the padding's edge cases)", () => {
    const bytes = Uint8Array.from({ length: 330 }, (_, i) => (i * 131 + 7) & 0xff);
    for (let n = 0; n <= bytes.length; n++) expect(sha256HexJs(bytes.subarray(0, n)), `length ${n}`).toBe(reference(bytes.subarray(0, n)));
  });

  it("agrees with node:crypto on random input", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => sha256HexJs(bytes) === reference(bytes)), { numRuns: 300 });
  });

  // The reference hashes with node:crypto imported here: hash.ts has not loaded it, so small values go
  // through the JavaScript digest (the test file runs in a process of its own).
  const canonicalReference = (value: unknown) => `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex")}`;

  it("hashCanonicalCold gives hashCanonical's digest for any JSON value, below and above the size hashed in JavaScript", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => hashCanonicalCold(value) === canonicalReference(value)), { numRuns: 300 });
    for (const text of ["", "é".repeat(700), "x".repeat(2030), "x".repeat(2049), "→".repeat(3000)]) expect(hashCanonicalCold({ text })).toBe(canonicalReference({ text }));
  });
});
