// The tamper matrix: each attack on a clean 8-run chain is caught at its exact first failing sequence,
// with its code, the file at fault and both hashes. Names follow the attack they model.
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { sha256Of } from "../../../src/core/hash.js";
import { buildChainEntry, computeChainHash, type ChainEntry } from "../../../src/domains/evidence/chain-hash.js";
import { verifyFeatureChain } from "../../../src/domains/evidence/evidence-verify.js";
import type { WrittenEvidence } from "../../../src/domains/evidence/evidence-files.js";
import { buildChain, chainLines, gateWorkspace, writeChainLines, type GateWorkspace } from "../../helpers/gates.js";

const F = "feat_a";
const RUNS = 8;
const K = 3; // the entry most attacks target
let ws: GateWorkspace;
let runs: WrittenEvidence[];
let entries: ChainEntry[];

const abs = (rel: string) => path.join(ws.root, rel);
/** Verifies under the lock, and first without it (the doctor's optimistic read): both reports must agree. */
const verify = async () => {
  const optimistic = await verifyFeatureChain(ws.layout, ws.clock, F, { recordResult: false, optimistic: true });
  const locked = await verifyFeatureChain(ws.layout, ws.clock, F);
  expect(optimistic).toEqual(locked);
  return locked;
};
const chainRel = ".aop/features/feat_a/evidence/chain.jsonl";
const manifest = () => JSON.parse(fs.readFileSync(ws.layout.manifestFile(F), "utf8"));

/** Append a forged run: its own evidence file, and an entry built by `forge` from the honest fields. */
function appendForged(forge: (honest: ChainEntry) => ChainEntry, updateManifest: boolean): ChainEntry {
  const fakeRel = ".aop/features/feat_a/evidence/gate-full-9999999999999.json";
  fs.writeFileSync(abs(fakeRel), JSON.stringify({ feature_id: F, mode: "full", overall: "pass", step_results: [] }));
  const honest = buildChainEntry({ sequence: RUNS, feature_id: F, artifact_rel_path: fakeRel, artifact_hash: sha256Of(fs.readFileSync(abs(fakeRel))), prev_chain_hash: entries[RUNS - 1]!.chain_hash, created_at: "2026-03-02T00:00:00.000Z" });
  const forged = forge(honest);
  fs.appendFileSync(ws.layout.chainFile(F), JSON.stringify(forged) + "\n");
  if (updateManifest) fs.writeFileSync(ws.layout.manifestFile(F), JSON.stringify({ ...manifest(), entry_count: RUNS + 1, head_hash: forged.chain_hash }));
  return forged;
}

beforeEach(async () => {
  ws = await gateWorkspace();
  runs = await buildChain(ws.layout, ws.clock, F, RUNS);
  entries = chainLines(ws.layout, F).map((l) => JSON.parse(l) as ChainEntry);
});

describe("tamper matrix", () => {
  it("untampered: the chain verifies", async () => {
    expect(await verify()).toMatchObject({ valid: true, entry_count: RUNS, head_hash: entries[RUNS - 1]!.chain_hash, failure_code: null, first_failure_sequence: null });
  });

  it("artifact-byte-flipped", async () => {
    const file = abs(runs[K]!.rel_path);
    const bytes = fs.readFileSync(file);
    bytes[20] = bytes[20]! ^ 0x01;
    fs.writeFileSync(file, bytes);
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_hash_mismatch", artifact_rel_path: runs[K]!.rel_path, expected_hash: entries[K]!.artifact_hash, actual_hash: sha256Of(bytes) });
  });

  it("artifact-deleted", async () => {
    fs.rmSync(abs(runs[K]!.rel_path));
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_artifact_missing", artifact_rel_path: runs[K]!.rel_path });
  });

  it("entry-artifact-hash-edited", async () => {
    const lines = chainLines(ws.layout, F);
    const edited = { ...entries[K]!, artifact_hash: sha256Of("something else") };
    lines[K] = JSON.stringify(edited);
    writeChainLines(ws.layout, F, lines);
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_hash_mismatch", artifact_rel_path: chainRel, expected_hash: entries[K]!.chain_hash, actual_hash: computeChainHash(edited) });
  });

  it("entry-prev-hash-edited", async () => {
    const lines = chainLines(ws.layout, F);
    const edited = { ...entries[K]!, prev_chain_hash: entries[0]!.chain_hash };
    lines[K] = JSON.stringify(edited);
    writeChainLines(ws.layout, F, lines);
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_hash_mismatch", expected_hash: entries[K]!.chain_hash, actual_hash: computeChainHash(edited) });
  });

  it("middle-entry-deleted", async () => {
    const lines = chainLines(ws.layout, F);
    lines.splice(K, 1);
    writeChainLines(ws.layout, F, lines);
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_discontinuity", artifact_rel_path: chainRel, failure_reason: expect.stringMatching(/carries sequence 4, expected 3/) });
  });

  it("two-entries-swapped", async () => {
    const lines = chainLines(ws.layout, F);
    [lines[K], lines[K + 1]] = [lines[K + 1]!, lines[K]!];
    writeChainLines(ws.layout, F, lines);
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_discontinuity" });
  });

  it("last-entry-removed-manifest-says-more", async () => {
    writeChainLines(ws.layout, F, chainLines(ws.layout, F).slice(0, -1));
    expect(manifest().entry_count).toBe(RUNS);
    expect(await verify()).toMatchObject({
      valid: false,
      first_failure_sequence: RUNS - 1,
      failure_code: "evidence_chain_discontinuity",
      expected_hash: entries[RUNS - 1]!.chain_hash,
      actual_hash: entries[RUNS - 2]!.chain_hash,
      failure_reason: expect.stringMatching(/records 8 entries but the chain has 7/),
    });
  });

  it.each([false, true])("forged-entry-wrong-chain-hash (manifest updated too: %s)", async (updateManifest) => {
    const forged = appendForged((honest) => ({ ...honest, chain_hash: sha256Of("made up") }), updateManifest);
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: RUNS, failure_code: "evidence_chain_hash_mismatch", expected_hash: forged.chain_hash, actual_hash: computeChainHash(forged) });
  });

  it.each([false, true])("forged-entry-recomputed-hash-wrong-prev (manifest updated too: %s)", async (updateManifest) => {
    const forged = appendForged((honest) => buildChainEntry({ ...honest, prev_chain_hash: entries[2]!.chain_hash }), updateManifest);
    expect(forged.chain_hash).toBe(computeChainHash(forged)); // the forger did recompute it
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: RUNS, failure_code: "evidence_chain_discontinuity", expected_hash: entries[RUNS - 1]!.chain_hash, actual_hash: entries[2]!.chain_hash });
  });

  it("latest-replaced-by-older-gate", async () => {
    fs.copyFileSync(abs(runs[2]!.rel_path), ws.layout.latestEvidence(F, "full"));
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: RUNS - 1, failure_code: "evidence_chain_hash_mismatch", artifact_rel_path: ".aop/features/feat_a/evidence/latest-full.json", expected_hash: entries[RUNS - 1]!.artifact_hash, actual_hash: entries[2]!.artifact_hash });
  });

  it("step-log-edited", async () => {
    const logRel = runs[K]!.evidence.step_results[0]!.log_path!;
    fs.appendFileSync(abs(logRel), "and one more line\n");
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_hash_mismatch", artifact_rel_path: logRel, expected_hash: runs[K]!.evidence.step_results[0]!.log_sha256, actual_hash: sha256Of(fs.readFileSync(abs(logRel))) });
  });

  it("unparseable-line", async () => {
    const lines = chainLines(ws.layout, F);
    lines[K] = lines[K]!.slice(0, 40);
    writeChainLines(ws.layout, F, lines);
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_discontinuity", failure_reason: expect.stringMatching(/line 4 of the chain is not valid JSON/) });
  });
});

describe("more ways a chain fails closed", () => {
  it("step-log-deleted", async () => {
    const logRel = runs[K]!.evidence.step_results[0]!.log_path!;
    fs.rmSync(abs(logRel));
    expect(await verify()).toMatchObject({ first_failure_sequence: K, failure_code: "evidence_chain_artifact_missing", artifact_rel_path: logRel });
  });

  it("chain-deleted: no chain is evidence_chain_missing", async () => {
    fs.rmSync(ws.layout.chainFile(F));
    expect(await verify()).toMatchObject({ valid: false, failure_code: "evidence_chain_missing", entry_count: 0, first_failure_sequence: null, failure_reason: expect.stringMatching(/manifest records 8/) });
  });

  it("manifest-deleted", async () => {
    fs.rmSync(ws.layout.manifestFile(F));
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: 0, failure_code: "evidence_chain_discontinuity", failure_reason: expect.stringMatching(/manifest is missing/) });
  });

  it("manifest-garbled", async () => {
    fs.writeFileSync(ws.layout.manifestFile(F), "\u0000\u0001 not json");
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: null, failure_code: "evidence_chain_discontinuity", artifact_rel_path: ".aop/features/feat_a/evidence/manifest.integrity.json" });
  });

  it("manifest-head-edited", async () => {
    fs.writeFileSync(ws.layout.manifestFile(F), JSON.stringify({ ...manifest(), head_hash: entries[2]!.chain_hash }));
    expect(await verify()).toMatchObject({ first_failure_sequence: RUNS - 1, failure_code: "evidence_chain_hash_mismatch", expected_hash: entries[2]!.chain_hash, actual_hash: entries[RUNS - 1]!.chain_hash });
  });

  it("entry-duplicated", async () => {
    const lines = chainLines(ws.layout, F);
    lines.splice(K, 0, lines[K]!);
    writeChainLines(ws.layout, F, lines);
    expect(await verify()).toMatchObject({ first_failure_sequence: K + 1, failure_code: "evidence_chain_discontinuity" });
  });

  it("entry-pointing-outside-the-evidence-folder", async () => {
    const lines = chainLines(ws.layout, F);
    lines[K] = JSON.stringify(buildChainEntry({ ...entries[K]!, artifact_rel_path: "../../etc/passwd" }));
    writeChainLines(ws.layout, F, lines);
    expect(await verify()).toMatchObject({ first_failure_sequence: K, failure_code: "evidence_chain_discontinuity", failure_reason: expect.stringMatching(/not a gate evidence file of this feature/) });
  });

  it("entry-with-a-lone-surrogate: fails closed instead of crashing", async () => {
    const lines = chainLines(ws.layout, F);
    lines[K] = lines[K]!.replace("gate-full-", "gate-\\ud800-"); // a JSON escape for a lone surrogate
    writeChainLines(ws.layout, F, lines);
    expect(await verify()).toMatchObject({ valid: false, first_failure_sequence: K, failure_code: "evidence_chain_discontinuity", failure_reason: expect.stringMatching(/lone surrogate/) });
  });

  it("latest-deleted", async () => {
    fs.rmSync(ws.layout.latestEvidence(F, "full"));
    expect(await verify()).toMatchObject({ first_failure_sequence: RUNS - 1, failure_code: "evidence_chain_artifact_missing", artifact_rel_path: ".aop/features/feat_a/evidence/latest-full.json" });
  });

  it("latest-for-an-unchained-mode", async () => {
    fs.writeFileSync(ws.layout.latestEvidence(F, "nightly"), JSON.stringify({ mode: "nightly", overall: "pass" }));
    expect(await verify()).toMatchObject({ first_failure_sequence: null, failure_code: "evidence_chain_hash_mismatch", artifact_rel_path: ".aop/features/feat_a/evidence/latest-nightly.json", expected_hash: null });
  });

  it("reports the first failure when several entries are damaged", async () => {
    fs.rmSync(abs(runs[5]!.rel_path));
    fs.appendFileSync(abs(runs[2]!.rel_path), " ");
    expect(await verify()).toMatchObject({ first_failure_sequence: 2, failure_code: "evidence_chain_hash_mismatch", entry_count: RUNS, head_hash: entries[1]!.chain_hash });
  });

  it("full-rewrite-is-undetectable-without-an-external-head: a consistent extension verifies; only a head kept elsewhere reveals it", async () => {
    const keptElsewhere = (await verify()).head_hash;
    const forged = appendForged((honest) => honest, true);
    fs.copyFileSync(abs(forged.artifact_rel_path), ws.layout.latestEvidence(F, "full"));
    const report = await verify();
    expect(report.valid).toBe(true); // the documented limit: a writer with full file access rewrites consistently
    expect(report.head_hash).not.toBe(keptElsewhere);
  });

  it("records the outcome in the manifest's last_verified_* fields only", async () => {
    const before = manifest();
    ws.clock.advance(60_000);
    await verify();
    expect(manifest()).toEqual({ ...before, last_verified_at: new Date(ws.clock.now()).toISOString(), last_verified_result: "valid" });
    fs.rmSync(abs(runs[0]!.rel_path));
    await verify();
    expect(manifest()).toMatchObject({ entry_count: before.entry_count, head_hash: before.head_hash, last_verified_result: "invalid" });
  });
});
