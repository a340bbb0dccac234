// Anchors against attacks the plain chain cannot see. Each test names the attack; the whole-chain rewrite
// (an artifact edited and every hash recomputed consistently) verifies as a plain chain — the documented
// limit — and fails once an anchor exists.
import fs from "node:fs";
import { generateKeyPairSync } from "node:crypto";
import { signedChain } from "../../helpers/attest.js";
import { beforeEach, describe, expect, it } from "vitest";
import { sha256Of } from "../../../src/core/hash.js";
import { anchorFeature } from "../../../src/domains/attest/anchor-service.js";
import { signerFor, type Signer } from "../../../src/domains/attest/ed25519-keys.js";
import { readCommittedKeys } from "../../../src/domains/attest/public-keys.js";
import { verifyEvidence } from "../../../src/domains/attest/verify-evidence.js";
import { buildChainEntry, GENESIS_HASH, type ChainEntry } from "../../../src/domains/evidence/chain-hash.js";
import { verifyFeatureChain } from "../../../src/domains/evidence/evidence-verify.js";
import type { WrittenEvidence } from "../../../src/domains/evidence/evidence-files.js";
import { buildChain, chainLines, type GateWorkspace, gateWorkspace, writeChainLines } from "../../helpers/gates.js";
import type { SigningKeyFixture } from "../../helpers/signing-key.js";

const F = "feat_a";
const RUNS = 8;
let ws: GateWorkspace;
let key: SigningKeyFixture;
let signer: Signer;
let runs: WrittenEvidence[];

const trusted = () => readCommittedKeys(ws.layout).keys.values();
const anchor = () => anchorFeature(ws.layout, ws.clock, signer, trusted(), F, { durable: false });
const verify = (anchorNote?: string) => verifyEvidence(ws.layout, ws.clock, F, anchorNote === undefined ? {} : { anchorNote });
const anchorsFile = () => ws.layout.anchorsFile(F);
const anchorLines = () => fs.readFileSync(anchorsFile(), "utf8").split("\n").filter(Boolean);

/** Rewrite the chain from `entries` on: every artifact_hash, chain_hash and the manifest recomputed. */
function rewriteChain(entries: ChainEntry[]): void {
  let prev = GENESIS_HASH;
  const lines = entries.map((e, i) => {
    const bytes = fs.readFileSync(`${ws.root}/${e.artifact_rel_path}`);
    const entry = buildChainEntry({ sequence: i, feature_id: F, artifact_rel_path: e.artifact_rel_path, artifact_hash: sha256Of(bytes), prev_chain_hash: prev, created_at: e.created_at });
    prev = entry.chain_hash;
    return JSON.stringify(entry);
  });
  writeChainLines(ws.layout, F, lines);
  fs.writeFileSync(ws.layout.manifestFile(F), JSON.stringify({ entry_count: lines.length, head_hash: prev, last_verified_at: null, last_verified_result: null }));
  const newest = entries[entries.length - 1]!;
  fs.copyFileSync(`${ws.root}/${newest.artifact_rel_path}`, ws.layout.latestEvidence(F, "full"));
}

const entries = () => chainLines(ws.layout, F).map((l) => JSON.parse(l) as ChainEntry);

beforeEach(async () => {
  ({ ws, key, signer, runs } = await signedChain(F, RUNS));
});

describe("anchors", () => {
  it("untampered: a fresh anchor verifies, and so does the chain grown after it", async () => {
    const a = await anchor();
    expect(a).toMatchObject({ created: true, tree_size: RUNS, origin: `aop/${ws.root.split("/").pop()}/${F}` });
    await buildChain(ws.layout, ws.clock, F, 2);
    const r = await verify();
    expect(r).toMatchObject({ valid: true, entry_count: RUNS + 2 });
    expect(r.anchors).toEqual([expect.objectContaining({ valid: true, tree_size: RUNS, root: a.root, current_root: a.root, keyid: key.keyid, entry_count: RUNS + 2 })]);
  });

  it("an unchanged chain is not anchored twice", async () => {
    const first = await anchor();
    expect(await anchor()).toMatchObject({ created: false, root: first.root, note: first.note });
    expect(anchorLines()).toHaveLength(1);
  });

  it("chain-rewritten-whole: plain verification passes, the anchor catches it", async () => {
    const before = await anchor();
    const file = `${ws.root}/${runs[3]!.rel_path}`;
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"overall": "pass"', '"overall": "fail"'));
    rewriteChain(entries());
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: RUNS });
    const r = await verify();
    expect(r).toMatchObject({ valid: false, failure_code: "evidence_chain_anchor_mismatch", first_failure_sequence: null, expected_hash: before.root, artifact_rel_path: ".aop/features/feat_a/evidence/anchors.jsonl" });
    expect(r.actual_hash).not.toBe(before.root);
    expect(r.anchors[0]).toMatchObject({ valid: false, tree_size: RUNS, root: before.root, current_root: r.actual_hash });
  });

  it("chain-truncated-with-manifest: the anchor says entries are gone", async () => {
    await anchor();
    rewriteChain(entries().slice(0, 5));
    expect((await verifyFeatureChain(ws.layout, ws.clock, F)).valid).toBe(true);
    expect(await verify()).toMatchObject({ valid: false, failure_code: "evidence_chain_anchor_mismatch", first_failure_sequence: 5, actual_hash: null, failure_reason: expect.stringMatching(/covers 8 entries but the chain has 5/) });
  });

  it("anchor-signature-flipped", async () => {
    await anchor();
    const record = JSON.parse(anchorLines()[0]!);
    const sig = record.note.trimEnd().split(" ").at(-1);
    const blob = Buffer.from(sig, "base64");
    blob[20]! ^= 1;
    record.note = record.note.replace(sig, blob.toString("base64"));
    fs.writeFileSync(anchorsFile(), JSON.stringify(record) + "\n");
    expect(await verify()).toMatchObject({ valid: false, failure_code: "evidence_signature_invalid" });
  });

  it("anchor-size-edited (the count raised without re-signing)", async () => {
    await anchor();
    const record = JSON.parse(anchorLines()[0]!);
    record.note = record.note.replace(`\n${RUNS}\n`, `\n${RUNS - 1}\n`);
    fs.writeFileSync(anchorsFile(), JSON.stringify(record) + "\n");
    expect(await verify()).toMatchObject({ valid: false, failure_code: "evidence_signature_invalid" });
  });

  it("anchor-signed-by-unknown-key (the forger's own key, not committed)", async () => {
    const forger = signerFor(generateKeyPairSync("ed25519").privateKey);
    await anchorFeature(ws.layout, ws.clock, forger, trusted(), F, { durable: false });
    const r = await verify();
    expect(r).toMatchObject({ valid: false, failure_code: "evidence_signing_key_unknown" });
    expect(r.anchors[0]!.keyid).toBeNull();
  });

  it("public-key-removed: an anchor nobody can check no longer passes", async () => {
    await anchor();
    fs.rmSync(ws.layout.publicKeyFile(key.keyid));
    expect(await verify()).toMatchObject({ valid: false, failure_code: "evidence_signing_key_unknown" });
  });

  it("anchor-copied-from-another-feature", async () => {
    await anchor();
    const other = await gateWorkspace({ featureId: "feat_b" });
    key.commitTo(other.root);
    await buildChain(other.layout, other.clock, "feat_b", RUNS);
    fs.mkdirSync(other.layout.evidenceDir("feat_b"), { recursive: true });
    fs.copyFileSync(anchorsFile(), other.layout.anchorsFile("feat_b"));
    expect(await verifyEvidence(other.layout, other.clock, "feat_b")).toMatchObject({ valid: false, failure_code: "evidence_chain_anchor_mismatch", failure_reason: expect.stringMatching(/not for feature 'feat_b'/) });
  });

  it("anchor-line-garbled", async () => {
    await anchor();
    fs.appendFileSync(anchorsFile(), "{not json}\n");
    const report = await verify();
    expect(report).toMatchObject({ valid: false, failure_code: "evidence_anchor_malformed" });
    expect(report.anchors).toMatchObject([{ source: expect.stringMatching(/anchors\.jsonl:2$/), entry_count: RUNS, valid: false }]);
  });

  it("anchor-torn-tail (a writer killed mid-append) is ignored, and the next anchor cuts it off", async () => {
    const first = await anchor();
    fs.appendFileSync(anchorsFile(), '{"anchored_at":"2026-');
    expect((await verify()).valid).toBe(true);
    await buildChain(ws.layout, ws.clock, F, 1);
    const warnings: string[] = [];
    const second = await anchorFeature(ws.layout, ws.clock, signer, trusted(), F, { durable: false, warn: (m) => warnings.push(m) });
    expect(second.tree_size).toBe(RUNS + 1);
    expect(warnings.join()).toMatch(/removed \d+ bytes of an interrupted append/);
    expect(anchorLines().map((l) => JSON.parse(l).note)).toEqual([first.note, second.note]);
    expect((await verify()).valid).toBe(true);
  });

  it("refuses to anchor a chain rewritten since its last anchor", async () => {
    await anchor();
    rewriteChain(entries().slice(0, 6));
    await expect(anchor()).rejects.toMatchObject({ code: "evidence_chain_anchor_mismatch" });
    expect(anchorLines()).toHaveLength(1);
  });

  it("anchors-file-deleted: a copy kept elsewhere (--anchor) still catches the rewrite", async () => {
    const kept = (await anchor()).note;
    rewriteChain(entries().slice(0, 7));
    fs.rmSync(anchorsFile());
    expect((await verify()).valid).toBe(true);
    expect(await verify(kept)).toMatchObject({ valid: false, failure_code: "evidence_chain_anchor_mismatch", artifact_rel_path: null });
  });

  it("a chain without an anchor verifies as before, with no anchor report", async () => {
    expect(await verify()).toMatchObject({ valid: true, anchors: [], attestations: { checked: 0, unattested: RUNS } });
  });
});
