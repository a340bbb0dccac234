import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { hashCanonical, isHashString, normalizeHash, sha256Of } from "../../src/core/hash.js";

describe("hashing", () => {
  it("prefixes sha256 hex with sha256:", () => {
    expect(sha256Of("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("hashes the canonical form, so key order does not matter", () => {
    const expected = "sha256:" + createHash("sha256").update('{"a":1,"b":[true,null]}').digest("hex");
    expect(hashCanonical({ b: [true, null], a: 1 })).toBe(expected);
  });

  it("recognises hash strings and normalises upstream bare hex", () => {
    const hex = "a".repeat(64);
    expect(isHashString(`sha256:${hex}`)).toBe(true);
    expect(isHashString(hex)).toBe(false);
    expect(normalizeHash(hex)).toBe(`sha256:${hex}`);
    expect(normalizeHash(`sha256:${hex}`)).toBe(`sha256:${hex}`);
    expect(normalizeHash("sha256:XYZ")).toBeNull();
    expect(normalizeHash(42)).toBeNull();
  });
});
