// Signed-evidence figures: signing a gate run's attestation and appending its receipt (beside writing its
// evidence file), anchoring a 10,000-entry chain (beside reading and hashing chain.jsonl) the first time
// (the gate runs' receipts stand for the attestations; without them every attestation is checked once)
// and after one more gate run (the common case), and verifying a 10,000-entry chain with an attestation
// per entry and an anchor (whole process, beside verifying the same chain without them; and the floor of
// that target: what they add to the walk's essential work, bare, bench/floors/verify-walk.cjs).
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { attestChainFixture, fixtureSigner } from "../../scripts/chain-fixture.mjs";
import { aop, compareProcesses, dist, median, node, record, tempDir } from "../lib.mjs";
import { buildFixture, VERIFY_FLOOR } from "./30-evidence.mjs";

const SUITE = "attest";
const FEATURE = "feat_bench";
const ENTRIES = 10_000;

async function signingKey(root) {
  const { WorkspaceLayout } = await dist("store/layout.js");
  return fixtureSigner(new WorkspaceLayout(root));
}

async function signFigure() {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { writeGateEvidence } = await dist("domains/evidence/evidence-files.js");
  const { appendChainEntryLocked } = await dist("domains/evidence/chain-store.js");
  const { attestGateRun } = await dist("domains/attest/gate-seal.js");
  const root = tempDir();
  const layout = new WorkspaceLayout(root);
  fs.mkdirSync(layout.orchestratorDir, { recursive: true });
  fs.writeFileSync(layout.gatesFile, "version: 1\nprofiles: {}\n");
  fs.writeFileSync(layout.policyFile, "version: 1\n");
  const signer = await signingKey(root);
  const write = [];
  const sign = [];
  for (let i = 0; i < 300; i++) {
    const epoch = 1_800_000_000_000 + i * 1000;
    const at = new Date(epoch).toISOString();
    const steps = ["lint", "unit-tests"].map((name) => ({ name, cmd: ["npm", "run", name], exit_code: 0, timed_out: false, attempts: 1, skipped: false, skip_reason: null, started_at: at, finished_at: at, log_path: `.aop/features/${FEATURE}/logs/${epoch}-full-${name}.log`, log_sha256: `sha256:${"ab".repeat(32)}` }));
    let t = performance.now();
    const written = writeGateEvidence(layout, { feature_id: FEATURE, mode: "full", profile: "default", overall: "pass", started_at: at, step_results: steps }, epoch);
    write.push(performance.now() - t);
    const entry = appendChainEntryLocked(layout, FEATURE, written.path, at, { durable: false });
    // What a gate run adds once its evidence is chained: the attestation (durable) and its receipt (under the evidence lock).
    t = performance.now();
    await attestGateRun(layout, signer, { feature_id: FEATURE, mode: "full", epochMs: written.epochMs, rel_path: written.rel_path, bytes: written.bytes, evidence: written.evidence }, entry);
    sign.push(performance.now() - t);
  }
  const warm = (xs) => xs.slice(10);
  if (!fs.existsSync(layout.attestationReceiptsFile(FEATURE))) throw new Error("the gate runs left no attestation receipts");
  record({ suite: SUITE, name: `sign and write an attestation and its receipt per gate run (median of ${sign.length - 10})`, value: median(warm(sign)), unit: "ms", baselineName: "write the evidence file", baselineValue: median(warm(write)), target: { maxValue: 2, label: "≤ 2 ms" } });
  fs.rmSync(root, { recursive: true, force: true });
}

/**
 * A 10,000-entry chain whose gate runs all carry an attestation, written as gate runs write them (with
 * their receipts), and an anchor over it.
 */
export async function signedFixture(root) {
  const { layout } = await buildFixture(root);
  const signer = await fixtureSigner(layout);
  const { anchorFeature } = await dist("domains/attest/anchor-service.js");
  const { readCommittedKeys } = await dist("domains/attest/public-keys.js");
  const { systemClock } = await dist("core/clock.js");
  await attestChainFixture(layout, FEATURE, signer);
  const anchor = () => anchorFeature(layout, systemClock, signer, readCommittedKeys(layout).keys.values(), FEATURE, { durable: false, warn: (m) => process.stderr.write(`${m}\n`) });
  return { layout, anchor, signer };
}

async function anchorFigure(fixture) {
  const { layout, anchor } = fixture;
  const chain = layout.chainFile(FEATURE);
  const anchors = layout.anchorsFile(FEATURE);
  const times = [];
  const baseline = [];
  for (let i = 0; i < 12; i++) {
    fs.rmSync(anchors, { force: true });
    let t = performance.now();
    await anchor();
    times.push(performance.now() - t);
    t = performance.now();
    createHash("sha256").update(fs.readFileSync(chain)).digest();
    baseline.push(performance.now() - t);
  }
  const newest = JSON.parse(fs.readFileSync(anchors, "utf8").trimEnd().split("\n").at(-1));
  if (newest.attestations === undefined) throw new Error("the first anchor carries no attestation digests");
  record({ suite: SUITE, name: `anchor a ${ENTRIES.toLocaleString("en-US")}-entry chain, first anchor (read, ${ENTRIES.toLocaleString("en-US")} leaves, root, the gate runs' receipts authenticated, sign, append; median of 11)`, value: median(times.slice(1)), unit: "ms", baselineName: "read chain.jsonl + sha256 of it", baselineValue: median(baseline.slice(1)), target: { maxValue: 100, label: "≤ 100 ms" } });
  // The same anchor without receipts (an older aop's gate runs, or receipts lost): every attestation checked.
  const receipts = layout.attestationReceiptsFile(FEATURE);
  fs.renameSync(receipts, `${receipts}.aside`);
  const full = [];
  for (let i = 0; i < 3; i++) {
    fs.rmSync(anchors, { force: true });
    const t = performance.now();
    await anchor();
    full.push(performance.now() - t);
  }
  fs.renameSync(`${receipts}.aside`, receipts);
  record({ suite: SUITE, name: `anchor a ${ENTRIES.toLocaleString("en-US")}-entry chain, first anchor without receipts (every attestation checked in full; median of 3)`, value: median(full), unit: "ms" });
  fs.rmSync(anchors, { force: true });
  await anchor();
}

/** One more attested gate run, chained as a gate run chains it. */
async function appendAttestedRun(layout, signer, i) {
  const { writeGateEvidence, updateLatestLocked } = await dist("domains/evidence/evidence-files.js");
  const { appendChainEntryLocked } = await dist("domains/evidence/chain-store.js");
  const { attestGateRun } = await dist("domains/attest/gate-seal.js");
  const epoch = 1_900_000_000_000 + i * 1000;
  const at = new Date(epoch).toISOString();
  const written = writeGateEvidence(layout, { feature_id: FEATURE, mode: "full", profile: "default", overall: "pass", started_at: at, step_results: [] }, epoch, { durable: false });
  const entry = appendChainEntryLocked(layout, FEATURE, written.path, at, { durable: false });
  updateLatestLocked(layout, written);
  await attestGateRun(layout, signer, { feature_id: FEATURE, mode: "full", epochMs: written.epochMs, rel_path: written.rel_path, bytes: written.bytes, evidence: written.evidence }, entry, { durable: false });
}

/** Anchoring after each further gate run: the newest anchor's digests vouch for all but the new attestation. */
async function incrementalAnchorFigure(fixture) {
  const { layout, anchor, signer } = fixture;
  const times = [];
  for (let i = 0; i < 12; i++) {
    await appendAttestedRun(layout, signer, i);
    const t = performance.now();
    const made = await anchor();
    times.push(performance.now() - t);
    if (!made.created) throw new Error("the incremental anchor was not made");
  }
  record({ suite: SUITE, name: `anchor after one more gate run (${ENTRIES.toLocaleString("en-US")}+ entries, the new attestation checked; median of 11)`, value: median(times.slice(1)), unit: "ms", target: { maxValue: 100, label: "≤ 100 ms" } });
}

async function verifyFigure(plainRoot, signedRoot) {
  const args = (root) => ["--root", root, "evidence", "verify", "--feature-id", FEATURE, "--json"];
  const { spawnSync } = await import("node:child_process");
  const probe = (root) => JSON.parse(spawnSync(process.execPath, aop(args(root)).args, { encoding: "utf8" }).stdout);
  const signed = probe(signedRoot);
  if (!signed.valid || signed.attestations.valid !== ENTRIES || signed.anchors[0]?.tree_size !== ENTRIES) throw new Error(`signed fixture does not verify: ${JSON.stringify(signed).slice(0, 400)}`);
  if (!probe(plainRoot).valid) throw new Error("plain fixture does not verify");
  const { subjectMs, baselineMs } = compareProcesses(aop(args(signedRoot)), aop(args(plainRoot)), 7);
  record({
    suite: SUITE,
    name: `verify ${ENTRIES.toLocaleString("en-US")} entries with an attestation each and an anchor, median of 7`,
    value: subjectMs,
    unit: "ms",
    baselineName: "verify the same chain without them",
    baselineValue: baselineMs,
    target: { max: 1.2, label: "≤ 1.2× without" },
  });
  // The floor of that target: what the attestations and the anchor add to the walk's essential work, bare.
  const floor = compareProcesses(node([VERIFY_FLOOR, signedRoot, FEATURE, "--signed"]), node([VERIFY_FLOOR, plainRoot, FEATURE]), 7);
  record({ suite: SUITE, name: "floor: the same two walks' essential work alone, bare (bench/floors/verify-walk.cjs)", value: floor.subjectMs, unit: "ms", baselineName: "bare, without attestations and anchor", baselineValue: floor.baselineMs });
}

export async function run() {
  await signFigure();
  const plainRoot = tempDir();
  fs.mkdirSync(path.join(plainRoot, ".git"));
  await buildFixture(plainRoot);
  const signedRoot = tempDir();
  fs.mkdirSync(path.join(signedRoot, ".git"));
  const fixture = await signedFixture(signedRoot);
  await anchorFigure(fixture);
  await verifyFigure(plainRoot, signedRoot);
  await incrementalAnchorFigure(fixture);
  fs.rmSync(plainRoot, { recursive: true, force: true });
  fs.rmSync(signedRoot, { recursive: true, force: true });
}
