// An anchor's attestation digests (docs/evidence.md, "Anchored attestation digests") let verification
// take unchanged attestations without checking their signatures again. The contract: the report is the
// one verification gives without the digests. Each attack below happens after the anchor; every test
// verifies twice — with the digests, and with them stripped from anchors.jsonl — and wants equal reports.
import fs from "node:fs";
import { generateKeyPairSync } from "node:crypto";
import { gateOf, signedChain } from "../../helpers/attest.js";
import { beforeEach, describe, expect, it } from "vitest";
import { anchorFeature } from "../../../src/domains/attest/anchor-service.js";
import { attestGate, writeBundle } from "../../../src/domains/attest/attest-gate.js";
import { attestationLeaf, checkAttestationDigests, signAttestationDigests } from "../../../src/domains/attest/attestation-digests.js";
import { merkleRoot } from "../../../src/domains/attest/merkle-tree.js";
import { sha256Of } from "../../../src/core/hash.js";
import { signerFor, type Signer } from "../../../src/domains/attest/ed25519-keys.js";
import { readCommittedKeys, writePublicKey } from "../../../src/domains/attest/public-keys.js";
import { verifyEvidence, type EvidenceVerifyReport } from "../../../src/domains/attest/verify-evidence.js";
import type { WrittenEvidence } from "../../../src/domains/evidence/evidence-files.js";
import { buildChain, type GateWorkspace } from "../../helpers/gates.js";
import { plantFault } from "../../helpers/faults.js";
import { PROGRESS_EVERY } from "../../../src/domains/evidence/chain-verify.js";

const F = "feat_a";
const RUNS = 6;
const K = 3;
let ws: GateWorkspace;
let signer: Signer;
let runs: WrittenEvidence[];
let warnings: string[];

const attestation = (i: number) => ws.layout.gateAttestation(F, "full", runs[i]!.epochMs);
const trusted = () => readCommittedKeys(ws.layout).keys.values();
const anchor = (by: Signer = signer) => anchorFeature(ws.layout, ws.clock, by, trusted(), F, { durable: false, warn: (m) => warnings.push(m) });
const anchorLines = () => fs.readFileSync(ws.layout.anchorsFile(F), "utf8").split("\n").filter(Boolean);
const newestRecord = () => JSON.parse(anchorLines().at(-1)!) as { note: string; attestations?: string };

function writeNewestRecord(record: object): void {
  const lines = anchorLines();
  lines[lines.length - 1] = JSON.stringify(record);
  fs.writeFileSync(ws.layout.anchorsFile(F), lines.join("\n") + "\n");
}

/** Verifies with the newest anchor's digests and without them; the two reports must be equal. */
async function verifyBothWays(): Promise<EvidenceVerifyReport> {
  const record = newestRecord();
  expect(record.attestations).toBeDefined();
  const withDigests = await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false });
  const { attestations: _digests, ...plain } = record;
  writeNewestRecord(plain);
  const without = await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false });
  writeNewestRecord(record);
  expect(withDigests).toEqual(without);
  return withDigests;
}

/** What verification gives, report or error, with the newest anchor's digests and without them; they must be equal. */
async function outcomeBothWays(): Promise<unknown> {
  const outcome = () =>
    verifyEvidence(ws.layout, ws.clock, F, { recordResult: false }).then(
      (report) => ({ report }),
      (err: { code?: string; message?: string }) => ({ error: { code: err.code, message: err.message } }),
    );
  const record = newestRecord();
  expect(record.attestations).toBeDefined();
  const withDigests = await outcome();
  const { attestations: _digests, ...plain } = record;
  writeNewestRecord(plain);
  const without = await outcome();
  writeNewestRecord(record);
  expect(withDigests).toEqual(without);
  return withDigests;
}

beforeEach(async () => {
  ({ ws, signer, runs } = await signedChain(F, RUNS));
  for (const run of runs) attestGate(ws.layout, signer, gateOf(run), { durable: false });
  warnings = [];
});

describe("an anchor's attestation digests", () => {
  it("are signed for the entries the anchor covers, under today's keys", async () => {
    await anchor();
    const digests = checkAttestationDigests(newestRecord().attestations!, F, readCommittedKeys(ws.layout).keys);
    expect(digests).toMatchObject({ size: RUNS, keyids: [signer.keyid] });
    expect(warnings).toEqual([]);
  });

  it("untampered: every attestation counts as checked and valid", async () => {
    await anchor();
    expect(await verifyBothWays()).toMatchObject({ valid: true, attestations: { checked: RUNS, valid: RUNS, failed: 0, unattested: 0 } });
  });

  it("attestation-payload-byte-changed after the anchor: its signature is checked and fails", async () => {
    await anchor();
    const envelope = JSON.parse(fs.readFileSync(attestation(K), "utf8"));
    const payload = Buffer.from(envelope.payload, "base64");
    payload[payload.indexOf("PASSED") + 1] = "B".charCodeAt(0);
    envelope.payload = payload.toString("base64");
    fs.writeFileSync(attestation(K), JSON.stringify(envelope) + "\n");
    expect(await verifyBothWays()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_signature_invalid" });
  });

  it("attestation-deleted after the anchor is counted as unattested", async () => {
    await anchor();
    fs.rmSync(attestation(K));
    expect(await verifyBothWays()).toMatchObject({ valid: true, attestations: { checked: RUNS - 1, unattested: 1 } });
  });

  it("attestation-swapped-between-runs after the anchor", async () => {
    await anchor();
    fs.copyFileSync(attestation(1), attestation(K));
    expect(await verifyBothWays()).toMatchObject({ valid: false, failure_code: "evidence_attestation_subject_mismatch" });
  });

  it("a bundle written after the anchor is checked in full", async () => {
    await anchor();
    const envelope = JSON.parse(fs.readFileSync(attestation(K), "utf8"));
    writeBundle(ws.layout, gateOf(runs[K]!), envelope);
    expect(await verifyBothWays()).toMatchObject({ valid: true, attestations: { checked: RUNS + 1, valid: RUNS + 1 } });
  });

  it("a key committed after the anchor: the digests no longer apply (a new key can change a verdict)", async () => {
    await anchor();
    writePublicKey(ws.layout, signerFor(generateKeyPairSync("ed25519").privateKey));
    expect(checkAttestationDigests(newestRecord().attestations!, F, readCommittedKeys(ws.layout).keys)).toBeNull();
    expect(await verifyBothWays()).toMatchObject({ valid: true, attestations: { checked: RUNS, valid: RUNS } });
  });

  it("the signing key removed after the anchor: its attestations are unknown, as without digests", async () => {
    await anchor();
    fs.rmSync(ws.layout.publicKeyFile(signer.keyid));
    expect(await verifyBothWays()).toMatchObject({ valid: false, failure_code: "evidence_signing_key_unknown" });
  });

  it("entries appended after the anchor are checked in full", async () => {
    await anchor();
    const more = await buildChain(ws.layout, ws.clock, F, 2);
    attestGate(ws.layout, signerFor(generateKeyPairSync("ed25519").privateKey), gateOf(more[1]!), { durable: false });
    expect(await verifyBothWays()).toMatchObject({ valid: false, first_failure_sequence: RUNS + 1, failure_code: "evidence_signing_key_unknown", attestations: { checked: RUNS + 1, unattested: 1 } });
  });

  it("attestations the store refuses below and beyond the anchor: the error verification without digests gives", async () => {
    await anchor();
    const more = await buildChain(ws.layout, ws.clock, F, 1);
    attestGate(ws.layout, signer, gateOf(more[0]!), { durable: false });
    await plantFault("fifo", attestation(K));
    await plantFault("fifo", ws.layout.gateAttestation(F, "full", more[0]!.epochMs));
    expect(await outcomeBothWays()).toMatchObject({ error: { code: "not_a_regular_file", message: expect.stringContaining(String(runs[K]!.epochMs)) } });
  });

  it("a chain failure after the anchor comes first, with the attestations of the entries before it", async () => {
    await anchor();
    fs.appendFileSync(`${ws.root}/${runs[K]!.rel_path}`, "x");
    expect(await verifyBothWays()).toMatchObject({ valid: false, failure_code: "evidence_chain_hash_mismatch", attestations: { checked: K } });
  });

  it("vouch like a signature: a committed key's digests over a broken attestation make verification accept it", async () => {
    await anchor();
    const envelope = JSON.parse(fs.readFileSync(attestation(K), "utf8"));
    envelope.signatures[0].sig = Buffer.alloc(64, 7).toString("base64");
    fs.writeFileSync(attestation(K), JSON.stringify(envelope) + "\n");
    // What an anchorer holding the key could sign; anchoring itself refuses to (next test).
    const record = newestRecord();
    const honest = checkAttestationDigests(record.attestations!, F, readCommittedKeys(ws.layout).keys)!;
    const leaves = runs.map((_, i) => attestationLeaf(sha256Of(fs.readFileSync(attestation(i))).slice("sha256:".length), null));
    const root = merkleRoot(leaves).toString("base64");
    writeNewestRecord({ ...record, attestations: signAttestationDigests({ ...honest, root }, signer) });
    expect(await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false })).toMatchObject({ valid: true, attestations: { checked: RUNS, valid: RUNS } });
    // Signed by a key nobody committed, the same digests are ignored and the signature is checked.
    writeNewestRecord({ ...record, attestations: signAttestationDigests({ ...honest, root }, signerFor(generateKeyPairSync("ed25519").privateKey)) });
    expect(await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false })).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_signature_invalid" });
  });

  it("anchoring over an attestation that fails leaves the anchor without digests, and says so", async () => {
    fs.copyFileSync(attestation(1), attestation(K));
    expect(await anchor()).toMatchObject({ created: true, tree_size: RUNS });
    expect(newestRecord().attestations).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/carries no attestation digests .*does not attest/)]);
  });

  it("the next anchor extends the digests from the previous ones, without reading the attestations they cover", async () => {
    await anchor();
    const more = await buildChain(ws.layout, ws.clock, F, 1);
    attestGate(ws.layout, signer, gateOf(more[0]!), { durable: false });
    fs.copyFileSync(attestation(1), attestation(K)); // an old one changed between the two anchors
    await anchor();
    expect(checkAttestationDigests(newestRecord().attestations!, F, readCommittedKeys(ws.layout).keys)).toMatchObject({ size: RUNS + 1 });
    expect(warnings).toEqual([]);
    // They vouch for what was checked; verification sees the change and checks the signatures after all.
    expect(await verifyBothWays()).toMatchObject({ valid: false, failure_code: "evidence_attestation_subject_mismatch", attestations: { checked: RUNS + 1 } });
  });

  it("a compact range that does not give the signed root is not extended: the next anchor checks everything", async () => {
    await anchor();
    const record = newestRecord() as { attestations_frontier?: string[] };
    writeNewestRecord({ ...record, attestations_frontier: record.attestations_frontier!.map(() => Buffer.alloc(32, 1).toString("base64")) });
    fs.copyFileSync(attestation(1), attestation(K));
    await buildChain(ws.layout, ws.clock, F, 1);
    await anchor();
    expect(newestRecord().attestations).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/does not attest/)]);
  });
});

describe("progress of a verification whose digests do not hold", () => {
  it("says the second walk checks every attestation in full", async () => {
    const entries = PROGRESS_EVERY + 10; // progress is told every PROGRESS_EVERY entries
    ({ ws, signer, runs } = await signedChain(F, entries));
    for (const run of runs) attestGate(ws.layout, signer, gateOf(run), { durable: false });
    await anchor();
    const envelope = JSON.parse(fs.readFileSync(attestation(K), "utf8"));
    envelope.signatures[0].sig = Buffer.alloc(64, 7).toString("base64");
    fs.writeFileSync(attestation(K), JSON.stringify(envelope));
    const told: [number, number | null, string | undefined][] = [];
    const report = await verifyEvidence(ws.layout, ws.clock, F, { recordResult: false, onProgress: (walked, expected, again) => told.push([walked, expected, again]) });
    expect(report).toMatchObject({ valid: false, failure_code: "evidence_signature_invalid" });
    expect(told).toEqual([
      [PROGRESS_EVERY, entries, undefined],
      [PROGRESS_EVERY, entries, "attestations_in_full"],
    ]);
  }, 30_000);
});
