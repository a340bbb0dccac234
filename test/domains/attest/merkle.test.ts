// RFC 6962 roots and RFC 9162 inclusion proofs against the vectors CT implementations share
// (transparency-dev/merkle testonly/constants.go and proof/verify_test.go; leaf indexes here 0-based),
// and negative vectors named for the attack they model.
import { describe, expect, it } from "vitest";
import { appendToFrontier, emptyTreeRoot, frontierLength, frontierRoot, inclusionProof, leafHash, leafHashOfText, merkleRoot } from "../../../src/domains/attest/merkle-tree.js";
import { rootFromInclusionProof, verifyInclusion } from "../../../src/domains/attest/merkle-verify.js";

const hx = (s: string) => Buffer.from(s, "hex");
const LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map(hx);
const ROOTS = [
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];
const PROOFS: [number, number, string[]][] = [
  [0, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7", "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e", "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]],
  [5, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b", "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0", "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]],
  [2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]],
  [1, 5, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d", "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e", "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]],
];
const lh = LEAVES.map(leafHash);

describe("RFC 6962 roots", () => {
  it.each(ROOTS.map((root, size) => [size, root] as const))("tree of %i leaves has the reference root", (size, root) => {
    expect(merkleRoot(lh, size).toString("hex")).toBe(root);
  });

  it("the empty tree's root is SHA-256 of nothing", () => {
    expect(emptyTreeRoot().toString("hex")).toBe(ROOTS[0]);
  });

  it("a line's leaf hashed from its text is the leaf of its UTF-8 bytes (multi-byte, lone surrogates, past the scratch buffer)", () => {
    for (const text of ["", '{"a":1}', "é€😀", "lone \ud800 surrogate", "x".repeat(5000), "ü".repeat(3000)]) {
      expect(leafHashOfText(text).equals(leafHash(Buffer.from(text, "utf8")))).toBe(true);
    }
  });

  it("a tree grown leaf by leaf through its compact range has the reference roots, and RFC 6962's for every size to 70", () => {
    const frontier: Buffer[] = [];
    lh.forEach((leaf, i) => {
      appendToFrontier(frontier, i, leaf);
      expect(frontierRoot(frontier).toString("hex")).toBe(ROOTS[i + 1]);
    });
    const many = Array.from({ length: 70 }, (_, i) => leafHash(Buffer.from([i])));
    const grown: Buffer[] = [];
    for (let size = 0; size <= 70; size++) {
      expect(frontierRoot(grown).equals(merkleRoot(many, size))).toBe(true);
      expect(grown.length).toBe(frontierLength(size));
      if (size < 70) appendToFrontier(grown, size, many[size]!);
    }
  });

  it("refuses a size beyond the leaves it was given", () => {
    expect(() => merkleRoot(lh, 9)).toThrow(RangeError);
  });
});

describe("RFC 9162 inclusion proofs", () => {
  it.each(PROOFS)("leaf %i of %i: the generated path is the reference path and verifies", (index, size, proof) => {
    expect(inclusionProof(lh, index, size).map((b) => b.toString("hex"))).toEqual(proof);
    expect(verifyInclusion(index, size, lh[index]!, proof.map(hx), hx(ROOTS[size]!))).toBe(true);
  });

  it("every leaf of every tree up to 8 leaves round-trips", () => {
    for (let size = 1; size <= 8; size++) {
      for (let index = 0; index < size; index++) {
        expect(verifyInclusion(index, size, lh[index]!, inclusionProof(lh, index, size), hx(ROOTS[size]!)), `${index}/${size}`).toBe(true);
      }
    }
  });

  it("a single-leaf tree has an empty proof", () => {
    expect(inclusionProof(lh, 0, 1)).toEqual([]);
    expect(verifyInclusion(0, 1, lh[0]!, [], hx(ROOTS[1]!))).toBe(true);
  });
});

describe("inclusion proofs that must fail", () => {
  const [index, size, hexProof] = PROOFS[1]!;
  const proof = hexProof.map(hx);
  const root = hx(ROOTS[size]!);

  it("wrong-leaf", () => {
    expect(verifyInclusion(index, size, lh[index + 1]!, proof, root)).toBe(false);
  });

  it("leaf-data-not-leaf-hashed (the raw data instead of its 0x00-prefixed hash)", () => {
    expect(verifyInclusion(0, 8, Buffer.alloc(32), PROOFS[0]![2].map(hx), hx(ROOTS[8]!))).toBe(false);
  });

  it("truncated-proof", () => {
    expect(rootFromInclusionProof(index, size, lh[index]!, proof.slice(0, -1))).toMatchObject({ ok: false, reason: expect.stringMatching(/shorter/) });
  });

  it("proof-with-trailing-hash", () => {
    expect(rootFromInclusionProof(index, size, lh[index]!, [...proof, proof[0]!])).toMatchObject({ ok: false, reason: expect.stringMatching(/longer/) });
  });

  it("wrong-tree-size (a proof for 8 leaves checked against the tree of 7, 6 or 16)", () => {
    for (const other of [7, 6]) expect(verifyInclusion(index, other, lh[index]!, proof, hx(ROOTS[other]!)), `${other}`).toBe(false);
    expect(rootFromInclusionProof(index, 16, lh[index]!, proof)).toMatchObject({ ok: false, reason: expect.stringMatching(/shorter/) });
  });

  it("wrong-index", () => {
    expect(verifyInclusion(index - 1, size, lh[index]!, proof, root)).toBe(false);
  });

  it("index-beyond-tree", () => {
    expect(rootFromInclusionProof(size, size, lh[0]!, proof)).toMatchObject({ ok: false, reason: expect.stringMatching(/outside/) });
  });

  it("modified-proof-hash (one bit)", () => {
    const bad = proof.map((p) => Buffer.from(p));
    bad[1]![7]! ^= 0x10;
    expect(verifyInclusion(index, size, lh[index]!, bad, root)).toBe(false);
  });

  it("proof-hashes-swapped", () => {
    expect(verifyInclusion(index, size, lh[index]!, [proof[1]!, proof[0]!, proof[2]!], root)).toBe(false);
  });

  it("short-proof-hash", () => {
    expect(rootFromInclusionProof(index, size, lh[index]!, [proof[0]!.subarray(0, 31), proof[1]!, proof[2]!])).toMatchObject({ ok: false });
  });

  it("wrong-root", () => {
    expect(verifyInclusion(index, size, lh[index]!, proof, hx(ROOTS[7]!))).toBe(false);
  });
});
