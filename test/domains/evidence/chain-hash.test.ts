// chain_hash is recomputed here without the product's canonical JSON or node:crypto: a minimal RFC 8785
// serializer and a from-scratch SHA-256 written in this file must give the same value for every entry.
import fs from "node:fs";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildChainEntry, chainEntryProblem, computeChainHash, GENESIS_HASH } from "../../../src/domains/evidence/chain-hash.js";
import { buildChain, chainLines, gateWorkspace, gatesYaml, nodeStep, policyWith } from "../../helpers/gates.js";
import { runGate } from "../../../src/domains/gates/gate-service.js";

// --- minimal RFC 8785 for the JSON types a chain entry holds (strings, safe integers, objects) ---
function jcs(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error("test JCS handles integers only");
    return String(value);
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    // RFC 8785 §3.2.3: sort by UTF-16 code units — compare char codes explicitly, not with the default sort.
    const keys = Object.keys(record).sort((a, b) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.charCodeAt(i) - b.charCodeAt(i);
      return a.length - b.length;
    });
    return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs(record[k])}`).join(",")}}`;
  }
  throw new Error(`test JCS does not handle ${typeof value}`);
}

// --- SHA-256 (FIPS 180-4), straight from the specification ---
const K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

function sha256Hex(text: string): string {
  const data = new TextEncoder().encode(text);
  const bitLength = data.length * 8;
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15]!, 7) ^ rotr(w[t - 15]!, 18) ^ (w[t - 15]! >>> 3);
      const s1 = rotr(w[t - 2]!, 17) ^ rotr(w[t - 2]!, 19) ^ (w[t - 2]! >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    const next = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i]! + next[i]!) >>> 0;
  }
  return [...h].map((x) => x.toString(16).padStart(8, "0")).join("");
}

/** chain_hash by the definition: sha256(JCS(entry without chain_hash and created_at)). */
function independentChainHash(entry: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...entry };
  delete rest.chain_hash;
  delete rest.created_at;
  return `sha256:${sha256Hex(jcs(rest))}`;
}

describe("the independent reference implementation", () => {
  it("matches the FIPS 180-4 test vectors", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    // Multi-block, multi-byte input, checked against the platform's implementation once.
    expect(sha256Hex("é".repeat(100))).toBe(createHash("sha256").update("é".repeat(100)).digest("hex"));
  });
});

describe("chain_hash", () => {
  it("every chain_hash of real gate runs and of a built chain recomputes independently", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("ok", "")], full: [nodeStep("ok", ""), nodeStep("two", "")] }) });
    for (const mode of ["fast", "full", "fast"]) {
      await runGate(ws.layout, ws.clock, policyWith(true), { feature_id: "feat_a", mode });
      ws.clock.advance(5);
    }
    await buildChain(ws.layout, ws.clock, "feat_a", 40, { mode: (i) => (i % 3 === 0 ? "fast" : "full") });
    const entries = chainLines(ws.layout, "feat_a").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toHaveLength(43);
    for (const entry of entries) expect(entry.chain_hash, `sequence ${entry.sequence}`).toBe(independentChainHash(entry));
    // The chain links: each prev_chain_hash is the previous chain_hash.
    entries.forEach((entry, i) => expect(entry.prev_chain_hash).toBe(i === 0 ? GENESIS_HASH : entries[i - 1]!.chain_hash));
    expect(fs.existsSync(ws.layout.manifestFile("feat_a"))).toBe(true);
  });

  it("agrees with the reference for arbitrary field values (property)", () => {
    const hex = fc.stringMatching(/^[0-9a-f]{64}$/).map((h) => `sha256:${h}`);
    fc.assert(
      fc.property(fc.nat({ max: 1e9 }), fc.string(), fc.string({ unit: "grapheme" }), hex, fc.oneof(hex, fc.constant(GENESIS_HASH)), (sequence, feature_id, artifact_rel_path, artifact_hash, prev_chain_hash) => {
        const entry = buildChainEntry({ sequence, feature_id, artifact_rel_path, artifact_hash, prev_chain_hash, created_at: "2026-01-01T00:00:00.000Z" });
        expect(entry.chain_hash).toBe(independentChainHash(entry as unknown as Record<string, unknown>));
      }),
      { numRuns: 200 },
    );
  });

  it("ignores created_at and keys its lines in the documented order", () => {
    const fields = { sequence: 3, feature_id: "f", artifact_rel_path: "a", artifact_hash: `sha256:${"1".repeat(64)}`, prev_chain_hash: GENESIS_HASH };
    const a = buildChainEntry({ ...fields, created_at: "2026-01-01T00:00:00.000Z" });
    const b = buildChainEntry({ ...fields, created_at: "2027-01-01T00:00:00.000Z" });
    expect(a.chain_hash).toBe(b.chain_hash);
    expect(Object.keys(a)).toEqual(["algorithm_version", "sequence", "feature_id", "artifact_rel_path", "artifact_hash", "prev_chain_hash", "chain_hash", "created_at"]);
    expect(computeChainHash({ ...a, sequence: 4 })).not.toBe(a.chain_hash);
  });

  it.each([
    ["an array", []],
    ["a missing key", { algorithm_version: 1 }],
  ])("chainEntryProblem rejects %s", (_t, value) => {
    expect(chainEntryProblem(value)).not.toBeNull();
  });

  it("chainEntryProblem rejects extra keys, other algorithm versions and malformed hashes", () => {
    const ok = buildChainEntry({ sequence: 0, feature_id: "f", artifact_rel_path: "a", artifact_hash: `sha256:${"1".repeat(64)}`, prev_chain_hash: GENESIS_HASH, created_at: "2026-01-01T00:00:00.000Z" });
    expect(chainEntryProblem(ok)).toBeNull();
    expect(chainEntryProblem({ ...ok, note: "x" })).toMatch(/unexpected keys \(note\)/);
    expect(chainEntryProblem({ ...ok, algorithm_version: 2 })).toMatch(/algorithm_version/);
    expect(chainEntryProblem({ ...ok, artifact_hash: "abc" })).toMatch(/artifact_hash/);
    expect(chainEntryProblem({ ...ok, sequence: -1 })).toMatch(/sequence/);
  });

  it("chainEntryProblem refuses a created_at naming no real instant (the one instants rule of core/instant.ts)", () => {
    const ok = buildChainEntry({ sequence: 0, feature_id: "f", artifact_rel_path: "a", artifact_hash: `sha256:${"1".repeat(64)}`, prev_chain_hash: GENESIS_HASH, created_at: "2026-01-01T00:00:00.000Z" });
    expect(chainEntryProblem({ ...ok, created_at: "2026-02-30T00:00:00.000Z" })).toMatch(/created_at/);
  });
});
