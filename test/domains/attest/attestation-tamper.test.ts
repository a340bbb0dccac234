// Attestations against forged gate results. Each test names the attack; failures carry their own codes
// and the sequence of the gate run whose attestation fails.
import fs from "node:fs";
import { generateKeyPairSync } from "node:crypto";
import { gateOf, signedChain } from "../../helpers/attest.js";
import { beforeEach, describe, expect, it } from "vitest";
import { sha256Of } from "../../../src/core/hash.js";
import { attestGate, writeBundle } from "../../../src/domains/attest/attest-gate.js";
import { signerFor, type Signer } from "../../../src/domains/attest/ed25519-keys.js";
import { verifyEvidence } from "../../../src/domains/attest/verify-evidence.js";
import { buildChainEntry, GENESIS_HASH, type ChainEntry } from "../../../src/domains/evidence/chain-hash.js";
import type { WrittenEvidence } from "../../../src/domains/evidence/evidence-files.js";
import { buildChain, chainLines, policyWith, writeChainLines, type GateWorkspace } from "../../helpers/gates.js";

const F = "feat_a";
const RUNS = 5;
const K = 2;
let ws: GateWorkspace;
let signer: Signer;
let runs: WrittenEvidence[];

const attestation = (i: number) => ws.layout.gateAttestation(F, "full", runs[i]!.epochMs);
const verify = () => verifyEvidence(ws.layout, ws.clock, F);

beforeEach(async () => {
  ({ ws, signer, runs } = await signedChain(F, RUNS));
  for (const run of runs) attestGate(ws.layout, signer, gateOf(run), { durable: false });
});

describe("attestations", () => {
  it("untampered: every attestation verifies", async () => {
    expect(await verify()).toMatchObject({ valid: true, attestations: { checked: RUNS, valid: RUNS, failed: 0, unattested: 0, failures: [] } });
  });

  it("attestation-payload-byte-changed", async () => {
    const envelope = JSON.parse(fs.readFileSync(attestation(K), "utf8"));
    const payload = Buffer.from(envelope.payload, "base64");
    payload[payload.indexOf("PASSED") + 1] = "A".charCodeAt(0) + 1;
    envelope.payload = payload.toString("base64");
    fs.writeFileSync(attestation(K), JSON.stringify(envelope) + "\n");
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_signature_invalid", artifact_rel_path: ws.layout.relative(attestation(K)) });
  });

  it("forged-gate-result: evidence flipped to pass and the whole chain rewritten; the attestation's digest no longer matches", async () => {
    const file = `${ws.root}/${runs[K]!.rel_path}`;
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"overall": "pass"', '"overall": "pazz"'));
    let prev = GENESIS_HASH;
    const lines = chainLines(ws.layout, F).map((l, i) => {
      const e = JSON.parse(l) as ChainEntry;
      const entry = buildChainEntry({ ...e, sequence: i, artifact_hash: sha256Of(fs.readFileSync(`${ws.root}/${e.artifact_rel_path}`)), prev_chain_hash: prev });
      prev = entry.chain_hash;
      return JSON.stringify(entry);
    });
    writeChainLines(ws.layout, F, lines);
    fs.writeFileSync(ws.layout.manifestFile(F), JSON.stringify({ entry_count: RUNS, head_hash: prev, last_verified_at: null, last_verified_result: null }));
    const r = await verify();
    expect(r).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_attestation_subject_mismatch" });
    expect(r.failure_reason).toMatch(/digest .* in the attestation but .* on disk/);
  });

  it("attestation-resigned-by-a-stranger (a key that is not committed)", async () => {
    fs.rmSync(attestation(K));
    attestGate(ws.layout, signerFor(generateKeyPairSync("ed25519").privateKey), gateOf(runs[K]!), { durable: false });
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_signing_key_unknown" });
  });

  it("attestation-swapped-between-runs", async () => {
    fs.copyFileSync(attestation(1), attestation(K));
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: 1 + 1, failure_code: "evidence_attestation_subject_mismatch", failure_reason: expect.stringMatching(/does not attest/) });
  });

  it("attestation-garbled", async () => {
    fs.writeFileSync(attestation(K), "{\"payloadType\":\n");
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_attestation_malformed" });
  });

  it("attestation-deleted is counted as unattested, not as a failure (the anchor and the chain still stand)", async () => {
    fs.rmSync(attestation(K));
    expect(await verify()).toMatchObject({ valid: true, attestations: { checked: RUNS - 1, unattested: 1 } });
  });

  it("bundle-tampered: a Sigstore bundle beside the evidence is checked too", async () => {
    const envelope = JSON.parse(fs.readFileSync(attestation(K), "utf8"));
    const { bundle_path } = writeBundle(ws.layout, gateOf(runs[K]!), envelope);
    const bundle = JSON.parse(fs.readFileSync(`${ws.root}/${bundle_path}`, "utf8"));
    bundle.dsseEnvelope.payloadType = "text/plain";
    fs.writeFileSync(`${ws.root}/${bundle_path}`, JSON.stringify(bundle));
    expect(await verify()).toMatchObject({ valid: false, failure_code: "evidence_attestation_malformed", artifact_rel_path: bundle_path });
  });

  it("unchained-gate-attested: an attestation of a gate file outside the chain is checked against the file", async () => {
    // As written while integrity was off (its latest-* copy is gone, as after later chained runs of the mode).
    const extra = await buildChain(ws.layout, ws.clock, F, 1, { mode: "adhoc", policy: policyWith(false) });
    fs.rmSync(ws.layout.latestEvidence(F, "adhoc"));
    attestGate(ws.layout, signer, { ...gateOf(extra[0]!), mode: "adhoc" }, { durable: false });
    expect(await verify()).toMatchObject({ valid: true, attestations: { checked: RUNS + 1, valid: RUNS + 1 } });
    fs.appendFileSync(`${ws.root}/${extra[0]!.rel_path}`, " ");
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: null, failure_code: "evidence_attestation_subject_mismatch" });
  });

  it("a chain failure comes first; the attestation report is still there", async () => {
    fs.appendFileSync(`${ws.root}/${runs[K]!.rel_path}`, "x");
    const r = await verify();
    expect(r).toMatchObject({ valid: false, failure_code: "evidence_chain_hash_mismatch", first_failure_sequence: K });
    expect(r.attestations.checked).toBe(K);
  });
});
