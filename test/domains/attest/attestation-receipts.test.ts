// Attestation receipts (docs/evidence.md, "Attestation receipts"): gate runs record that their attestation
// is valid, so the first anchor takes it as checked. The contract: a receipt is used only when the anchoring
// key made it, for this very chain line, naming exactly the files the folder holds; anything else is
// checked in full. Each attack below is paired with attestation K changed after its receipt was written:
// with usable receipts the anchor pins K's old digest (no warning) and verification still reports K; when
// the receipts cannot be used, the anchor's full check finds K and makes no digests (it warns).
import fs from "node:fs";
import { createPrivateKey, generateKeyPairSync, hkdfSync } from "node:crypto";
import { gateOf, signedChain, type ChainedRun } from "../../helpers/attest.js";
import { beforeEach, describe, expect, it, vi } from "vitest";
import "../../helpers/workers-env.js";
import { startWorker } from "../../helpers/processes.js";
import { anchorFeature } from "../../../src/domains/attest/anchor-service.js";
import { attestGateRun } from "../../../src/domains/attest/gate-seal.js";
import { authenticReceipts, receiptKey } from "../../../src/domains/attest/attestation-receipts.js";
import { signerFor, type Signer } from "../../../src/domains/attest/ed25519-keys.js";
import { readCommittedKeys, writePublicKey } from "../../../src/domains/attest/public-keys.js";
import { verifyEvidence, type EvidenceVerifyReport } from "../../../src/domains/attest/verify-evidence.js";
import { chainLine } from "../../../src/domains/evidence/index.js";
import { buildChain, chainLines, gateWorkspace, writeChainLines, type GateWorkspace } from "../../helpers/gates.js";
import { signingKeyFixture, type SigningKeyFixture } from "../../helpers/signing-key.js";
import { computeChainHash } from "../../../src/domains/evidence/chain-hash.js";
import { leafHash } from "../../../src/domains/attest/merkle-tree.js";
import { RECEIPT_BYTES_PER_CHECK } from "../../../src/domains/attest/receipt-file.js";
import { systemClock } from "../../../src/core/clock.js";

const F = "feat_a";
const RUNS = 6;
const K = 2;
let ws: GateWorkspace;
let key: SigningKeyFixture;
let signer: Signer;
let runs: ChainedRun[];
let warnings: string[];

const attestation = (i: number) => ws.layout.gateAttestation(F, "full", runs[i]!.epochMs);
const receiptsFile = () => ws.layout.attestationReceiptsFile(F);
const receiptLines = () => fs.readFileSync(receiptsFile(), "utf8").split("\n").filter(Boolean);
const anchor = (by: Signer = signer) => anchorFeature(ws.layout, ws.clock, by, readCommittedKeys(ws.layout).keys.values(), F, { durable: false, warn: (m) => warnings.push(m) });
const newestRecord = () => JSON.parse(fs.readFileSync(ws.layout.anchorsFile(F), "utf8").trimEnd().split("\n").at(-1)!) as { note: string; attestations?: string };
const authentic = (by: Signer = signer) => [...authenticReceipts(fs.readFileSync(receiptsFile()), F, receiptKey(by)).keys()].sort((a, b) => a - b);

/** Attestation `i` (or the one at `file`) changed after its receipt: a payload byte flipped, so its signature no longer verifies. */
function breakAttestation(i: number, file = attestation(i)): void {
  const envelope = JSON.parse(fs.readFileSync(file, "utf8"));
  const payload = Buffer.from(envelope.payload, "base64");
  payload[payload.indexOf("PASSED") + 1] = "B".charCodeAt(0);
  envelope.payload = payload.toString("base64");
  fs.writeFileSync(file, JSON.stringify(envelope) + "\n");
}

/** The anchor's full check found attestation K: no digests, and a warning naming why. */
async function expectFullCheck(): Promise<void> {
  expect(await anchor()).toMatchObject({ created: true, tree_size: RUNS });
  expect(newestRecord().attestations).toBeUndefined();
  expect(warnings).toEqual([expect.stringMatching(/carries no attestation digests .*signature does not verify/)]);
}

/** With the digests and without them, verification gives the same report (the anchored-digests contract). */
async function verifyBothWays(): Promise<EvidenceVerifyReport> {
  const withDigests = await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false });
  const lines = fs.readFileSync(ws.layout.anchorsFile(F), "utf8").trimEnd().split("\n");
  const { attestations: _a, attestations_frontier: _f, ...plain } = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  fs.writeFileSync(ws.layout.anchorsFile(F), [...lines.slice(0, -1), JSON.stringify(plain)].join("\n") + "\n");
  expect(await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false })).toEqual(withDigests);
  return withDigests;
}

beforeEach(async () => {
  ({ ws, key, signer, runs } = await signedChain(F, RUNS));
  warnings = [];
  for (const run of runs) await attestGateRun(ws.layout, signer, gateOf(run), run.chain, { durable: false, warn: (m) => warnings.push(m) });
  expect(warnings).toEqual([]);
});

describe("attestation receipts", () => {
  it("one line per chained gate run, each authenticated by the signing key", () => {
    expect(receiptLines()).toHaveLength(RUNS);
    expect(authentic()).toEqual([...Array(RUNS).keys()]);
    expect(authentic(signerFor(generateKeyPairSync("ed25519").privateKey))).toEqual([]);
  });

  it("stand for the attestations at the first anchor: one changed after its receipt keeps its old digest, and verification reports it", async () => {
    breakAttestation(K);
    expect(await anchor()).toMatchObject({ created: true, tree_size: RUNS });
    expect(warnings).toEqual([]);
    expect(newestRecord().attestations).toBeDefined();
    // The anchor pinned the digest the receipt named; today's bytes differ, so the signature is checked after all.
    expect(await verifyBothWays()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_signature_invalid" });
  });

  it("an untampered chain anchored from receipts verifies with every attestation valid", async () => {
    await anchor();
    expect(warnings).toEqual([]);
    expect(await verifyBothWays()).toMatchObject({ valid: true, attestations: { checked: RUNS, valid: RUNS, failed: 0 } });
  });

  it("are used without reading the attestations they vouch for", async () => {
    // Where attestation K was, a folder: a full check could not read it, a receipt does not need to.
    const bytes = fs.readFileSync(attestation(K));
    fs.rmSync(attestation(K));
    fs.mkdirSync(attestation(K));
    await anchor();
    expect(warnings).toEqual([]);
    expect(newestRecord().attestations).toBeDefined();
    fs.rmSync(attestation(K), { recursive: true });
    fs.writeFileSync(attestation(K), bytes);
    expect(await verifyBothWays()).toMatchObject({ valid: true, attestations: { checked: RUNS, valid: RUNS } });
  });

  it("receipt-digest-swapped: a receipt line edited to vouch for a forged attestation fails its MAC, and the forgery is checked in full", async () => {
    breakAttestation(K);
    const forged = (await import("node:crypto")).hash("sha256", fs.readFileSync(attestation(K)), "hex");
    const lines = receiptLines();
    const fields = lines[K]!.split(" ");
    fields[6] = forged;
    lines[K] = fields.join(" ");
    fs.writeFileSync(receiptsFile(), lines.join("\n") + "\n");
    expect(authentic()).toEqual([...Array(RUNS).keys()].filter((i) => i !== K));
    await expectFullCheck();
    expect(await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false })).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_signature_invalid" });
  });

  it("receipt-accumulator-recomputed: re-hashing the edited line (SHA-256 is unkeyed) still leaves it without a valid MAC", async () => {
    breakAttestation(K);
    const { hash } = await import("node:crypto");
    const lines = receiptLines();
    const fields = lines[K]!.split(" ");
    fields[6] = hash("sha256", fs.readFileSync(attestation(K)), "hex");
    const content = fields.slice(0, 9).join(" ");
    const previousTail = lines[K - 1]!.split(" ").slice(-2).join(" ");
    lines[K] = `${content} ${hash("sha256", `${previousTail}\n${content}`, "hex")} ${fields[10]}`;
    fs.writeFileSync(receiptsFile(), lines.join("\n") + "\n");
    // K is consistent now, but no MAC covers it: K-1's vouches for the lines before, K+1 breaks the link.
    expect(authentic()).toEqual([...Array(RUNS).keys()].filter((i) => i !== K && i !== K + 1));
    await expectFullCheck();
  });

  it("forged lines appended after the last real one are ignored; the real ones still count", async () => {
    breakAttestation(RUNS - 1);
    const { hash } = await import("node:crypto");
    const lines = receiptLines();
    const fields = lines[RUNS - 1]!.split(" ");
    fields[6] = hash("sha256", fs.readFileSync(attestation(RUNS - 1)), "hex");
    const content = fields.slice(0, 9).join(" ");
    const previousTail = lines[RUNS - 1]!.split(" ").slice(-2).join(" ");
    fs.appendFileSync(receiptsFile(), `${content} ${hash("sha256", `${previousTail}\n${content}`, "hex")} ${"0".repeat(64)}\n`);
    expect(authentic()).toEqual([...Array(RUNS).keys()]);
    // The last authentic receipt for RUNS-1 names the real attestation's digest: the anchor pins it, verification reports the change.
    await anchor();
    expect(await verifyBothWays()).toMatchObject({ valid: false, first_failure_sequence: RUNS - 1, failure_code: "evidence_signature_invalid" });
  });

  it("receipts made under another key (the key rotated) are not used", async () => {
    breakAttestation(K);
    const next = signerFor(generateKeyPairSync("ed25519").privateKey);
    writePublicKey(ws.layout, next);
    expect(await anchor(next)).toMatchObject({ created: true });
    expect(newestRecord().attestations).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/carries no attestation digests/)]);
  });

  it("receipts of a key no longer committed are not used", async () => {
    breakAttestation(K);
    const next = signerFor(generateKeyPairSync("ed25519").privateKey);
    writePublicKey(ws.layout, next);
    fs.rmSync(ws.layout.publicKeyFile(signer.keyid));
    await anchor();
    expect(newestRecord().attestations).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/carries no attestation digests/)]);
  });

  it("receipts file deleted: every attestation is checked in full and the anchor is still made", async () => {
    fs.rmSync(receiptsFile());
    await anchor();
    expect(newestRecord().attestations).toBeDefined();
    expect(warnings).toEqual([]);
    breakAttestation(K);
    fs.rmSync(ws.layout.anchorsFile(F));
    await expectFullCheck();
  });

  it("a torn last line (a writer killed mid-append) is ignored; the lines before it still count", async () => {
    const text = fs.readFileSync(receiptsFile(), "utf8");
    fs.writeFileSync(receiptsFile(), text.slice(0, text.length - 70));
    expect(authentic()).toEqual([...Array(RUNS - 1).keys()]);
    breakAttestation(RUNS - 1);
    await expectFullCheck();
  });

  it("a truncated file keeps the receipts whose lines survive whole", async () => {
    const lines = receiptLines();
    fs.writeFileSync(receiptsFile(), lines.slice(0, K + 1).join("\n") + "\n");
    expect(authentic()).toEqual([...Array(K + 1).keys()]);
    breakAttestation(K);
    await anchor();
    expect(warnings).toEqual([]); // K's receipt survived: the anchor pins its old digest
    breakAttestation(K + 1);
    fs.rmSync(ws.layout.anchorsFile(F));
    warnings = [];
    await expectFullCheck();
  });

  it("receipts for entries the chain no longer holds (the chain rewritten) do not match its leaves", async () => {
    breakAttestation(K);
    // The whole chain rewritten consistently with another created_at: the same files, other lines.
    let prev = JSON.parse(chainLines(ws.layout, F)[0]!).prev_chain_hash as string;
    const rewritten = chainLines(ws.layout, F).map((line) => {
      const { chain_hash: _c, created_at: _t, ...entry } = JSON.parse(line) as Record<string, unknown>;
      const payload = { ...entry, prev_chain_hash: prev };
      prev = computeChainHash(payload as never);
      return JSON.stringify({ ...payload, chain_hash: prev, created_at: "2030-01-01T00:00:00.000Z" });
    });
    writeChainLines(ws.layout, F, rewritten);
    const manifest = JSON.parse(fs.readFileSync(ws.layout.manifestFile(F), "utf8"));
    fs.writeFileSync(ws.layout.manifestFile(F), JSON.stringify({ ...manifest, head_hash: prev }));
    await expectFullCheck();
  });

  it("a file the receipt does not name (a bundle written later, without a receipt) makes the entry checked in full", async () => {
    breakAttestation(K);
    fs.writeFileSync(ws.layout.gateBundle(F, "full", runs[K]!.epochMs), "{}\n");
    await anchor();
    expect(newestRecord().attestations).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/carries no attestation digests/)]);
  });

  it("nothing writes the private key or the derived MAC key", () => {
    const der = createPrivateKey(key.privatePem).export({ type: "pkcs8", format: "der" });
    const derived = Buffer.from(hkdfSync("sha256", der, Buffer.alloc(0), "aop attestation receipts v1: HMAC-SHA256 of the accumulator", 32));
    const text = fs.readFileSync(receiptsFile(), "utf8");
    for (const secret of [der.toString("hex"), der.toString("base64"), derived.toString("hex"), derived.toString("base64"), der.subarray(-32).toString("hex")]) expect(text).not.toContain(secret);
    expect(text).not.toContain("PRIVATE KEY");
    // The MAC key is a secret KeyObject: printing it shows no bytes.
    expect(JSON.stringify(receiptKey(signer))).not.toContain(derived.toString("hex"));
    expect(receiptLines().every((l) => /^aop-receipt-v1 [+0] feat_a \d+ gate-full-\d+\.json [0-9a-f]{64} [0-9a-f]{64} - [0-9a-f]{64} [0-9a-f]{64} [0-9a-f]{64}$/.test(l))).toBe(true);
  });

  it("verify, the orphan scan and evidence.latest pass over the receipts file", async () => {
    await anchor();
    const report = await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false });
    expect(report).toMatchObject({ valid: true, attestations: { checked: RUNS, valid: RUNS, failed: 0, unattested: 0 } });
    expect(JSON.stringify(report)).not.toContain("attestation-receipts");
  });

  it("the receipt of a gate run recorded twice (a retried publication) is appended again and stays authentic", async () => {
    await attestGateRun(ws.layout, signer, gateOf(runs[K]!), runs[K]!.chain, { durable: false });
    expect(receiptLines()).toHaveLength(RUNS + 1);
    expect(authentic()).toEqual([...Array(RUNS).keys()]);
  });

  it("a torn last line the file system will not let the writer cut costs the receipt, not the gate run", async () => {
    fs.appendFileSync(receiptsFile(), "aop-receipt-v1 torn");
    const more = await buildChain(ws.layout, ws.clock, F, 1);
    vi.spyOn(fs, "truncateSync").mockImplementation(() => {
      throw Object.assign(new Error("EPERM: operation not permitted"), { code: "EPERM" });
    });
    try {
      await attestGateRun(ws.layout, signer, gateOf(more[0]!), more[0]!.chain, { durable: false, warn: (m) => warnings.push(m) });
    } finally {
      vi.restoreAllMocks();
    }
    expect(fs.existsSync(ws.layout.gateAttestation(F, "full", more[0]!.epochMs))).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^no attestation receipt for .*not permitted.*\(the next anchor checks it in full\)$/)]);
    expect(receiptLines()).toHaveLength(RUNS + 1); // the torn line is still there, nothing glued onto it
    expect(authentic()).toEqual([...Array(RUNS).keys()]);
  });

  describe("an anchor after one more gate run", () => {
    /** Anchor, one more gate run with a receipt, its attestation changed after the receipt, anchor again. */
    async function anchorAfterOneMore(history: string): Promise<void> {
      expect(await anchor()).toMatchObject({ created: true, tree_size: RUNS });
      fs.appendFileSync(receiptsFile(), history);
      const more = await buildChain(ws.layout, ws.clock, F, 1);
      await attestGateRun(ws.layout, signer, gateOf(more[0]!), more[0]!.chain, { durable: false });
      breakAttestation(RUNS, ws.layout.gateAttestation(F, "full", more[0]!.epochMs));
      expect(await anchor()).toMatchObject({ created: true, tree_size: RUNS + 1 });
    }

    it("takes the new entry's receipt while the receipts are few", async () => {
      await anchorAfterOneMore("");
      expect(newestRecord().attestations).toBeDefined();
      expect(warnings).toEqual([]);
    });

    it("checks the new attestation in full rather than read a long history of receipts", async () => {
      // Lines no key authenticates: a history larger than one full check is worth.
      await anchorAfterOneMore(`${"x".repeat(400)}\n`.repeat(Math.ceil((2 * RECEIPT_BYTES_PER_CHECK) / 401)));
      expect(newestRecord().attestations).toBeUndefined();
      expect(warnings).toEqual([expect.stringMatching(/carries no attestation digests .*signature does not verify/)]);
    });
  });

  it("a damaged last line makes the next writer start a fresh run, which still counts", async () => {
    fs.appendFileSync(receiptsFile(), "garbage that is no receipt\n");
    const more = await buildChain(ws.layout, ws.clock, F, 1);
    await attestGateRun(ws.layout, signer, gateOf(more[0]!), more[0]!.chain, { durable: false });
    expect(receiptLines().at(-1)).toMatch(/^aop-receipt-v1 0 /);
    expect(authentic()).toEqual([...Array(RUNS + 1).keys()]);
  });

  it("an on-demand attestation with a bundle leaves a receipt naming both files", async () => {
    const { attestOnDemand } = await import("../../../src/domains/attest/attest-on-demand.js");
    await attestOnDemand(ws.layout, signer, { feature_id: F, gate: runs[K]!.rel_path, bundle: true });
    expect(receiptLines().at(-1)!.split(" ")[7]).toMatch(/^[0-9a-f]{64}$/);
    breakAttestation(K);
    await anchor();
    expect(warnings).toEqual([]);
    expect(await verifyBothWays()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_signature_invalid" });
  });

  it("a receipt's leaf is that of the chain line exactly", () => {
    expect(receiptLines()[K]!.split(" ")[5]).toBe(leafHash(Buffer.from(chainLine(runs[K]!.chain!))).toString("hex"));
    expect(chainLine(runs[K]!.chain!)).toBe(chainLines(ws.layout, F)[K]);
  });
});

describe("attestation receipts across processes", () => {
  it("3 processes × 10 gate runs: one authentic receipt per entry, in one consistent file", async () => {
    const { root, layout } = await gateWorkspace();
    const k = signingKeyFixture();
    k.commitTo(root);
    const workers = [0, 1, 2].map(() => startWorker("receipt-writer.mjs", [root, F, "10"], { AOP_SIGNING_KEY: k.file }));
    for (const r of await Promise.all(workers.map((w) => w.done))) expect(r.code, r.stderr).toBe(0);
    const s = signerFor(createPrivateKey(k.privatePem));
    expect([...authenticReceipts(fs.readFileSync(layout.attestationReceiptsFile(F)), F, receiptKey(s)).keys()].sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
    expect(fs.readFileSync(layout.attestationReceiptsFile(F), "utf8").split("\n").filter(Boolean)).toHaveLength(30);
  }, 120_000);

  it("a writer killed mid-append leaves a torn line that is ignored, then cut off by the next writer", async () => {
    const { root, layout } = await gateWorkspace();
    const k = signingKeyFixture();
    k.commitTo(root);
    // Each round appends twice (the chain line, then the receipt): the 4th append is round 2's receipt.
    const victim = startWorker("receipt-writer.mjs", [root, F, "5"], { AOP_SIGNING_KEY: k.file, AOP_CRASH_AT: "append:torn@4" });
    expect((await victim.done).signal).toBe("SIGKILL");
    const file = layout.attestationReceiptsFile(F);
    expect(fs.readFileSync(file, "utf8").endsWith("\n")).toBe(false);
    const s = signerFor(createPrivateKey(k.privatePem));
    expect([...authenticReceipts(fs.readFileSync(file), F, receiptKey(s)).keys()]).toEqual([0]);
    const next = startWorker("receipt-writer.mjs", [root, F, "2"], { AOP_SIGNING_KEY: k.file });
    expect((await next.done).code).toBe(0);
    expect(fs.readFileSync(file, "utf8").endsWith("\n")).toBe(true);
    // Entry 1's receipt died with its writer (its attestation exists: the anchor checks it in full).
    expect([...authenticReceipts(fs.readFileSync(file), F, receiptKey(s)).keys()].sort((a, b) => a - b)).toEqual([0, 2, 3]);
    const warned: string[] = [];
    const anchored = await anchorFeature(layout, systemClock, s, readCommittedKeys(layout).keys.values(), F, { durable: false, warn: (m) => warned.push(m) });
    expect(anchored).toMatchObject({ created: true, tree_size: 4 });
    expect(warned).toEqual([]);
    expect(await verifyEvidence(layout, systemClock, F)).toMatchObject({ valid: true, attestations: { checked: 4, valid: 4 } });
  }, 120_000);
});
