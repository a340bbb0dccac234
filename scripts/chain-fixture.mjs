// Writes a feature's integrity chain the way gate runs leave it — evidence files, step logs, chain.jsonl,
// the manifest and the latest copy — directly with the chain's own functions (dist/), since running
// thousands of gates would take hours. For the bench, the build's code-cache samples and the tests of
// long chains.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = (file) => import(pathToFileURL(path.join(root, "dist", file)).href);

/** A gate run with one step that ran and wrote a log. */
function oneStep(layout, sha256Of, featureId, i, epoch) {
  const at = new Date(epoch).toISOString();
  const log = layout.stepLog(featureId, epoch, "full", "unit-tests");
  const text = `run ${i}: ok\n`;
  fs.writeFileSync(log, text);
  const step = { name: "unit-tests", cmd: ["npm", "test"], exit_code: 0, timed_out: false, attempts: 1, skipped: false, skip_reason: null, started_at: at, finished_at: at, log_path: layout.relative(log), log_sha256: sha256Of(text) };
  return { feature_id: featureId, mode: "full", profile: "default", overall: "pass", started_at: at, finished_at: at, step_results: [step] };
}

/**
 * `entries` chained gate runs of `featureId` in the workspace at `work`, one a second from a fixed
 * epoch; `evidenceFor(layout, sha256Of, featureId, i, epoch)` gives each run's evidence (writing its logs).
 */
export async function writeChainFixture(work, featureId, entries, evidenceFor = oneStep) {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { sha256Of } = await dist("core/hash.js");
  const { buildChainEntry, GENESIS_HASH } = await dist("domains/evidence/chain-hash.js");
  const layout = new WorkspaceLayout(work);
  fs.mkdirSync(layout.evidenceDir(featureId), { recursive: true });
  fs.mkdirSync(layout.featureLogsDir(featureId), { recursive: true });
  const lines = [];
  let prev = GENESIS_HASH;
  let text = "";
  let bytes = 0;
  for (let i = 0; i < entries; i++) {
    const epoch = 1_800_000_000_000 + i * 1000;
    text = JSON.stringify(evidenceFor(layout, sha256Of, featureId, i, epoch), null, 2) + "\n";
    bytes += text.length;
    const file = layout.gateEvidence(featureId, "full", epoch);
    fs.writeFileSync(file, text);
    const entry = buildChainEntry({ sequence: i, feature_id: featureId, artifact_rel_path: layout.relative(file), artifact_hash: sha256Of(text), prev_chain_hash: prev, created_at: new Date(epoch).toISOString() });
    lines.push(JSON.stringify(entry));
    prev = entry.chain_hash;
  }
  fs.writeFileSync(layout.chainFile(featureId), lines.join("\n") + "\n");
  fs.writeFileSync(layout.latestEvidence(featureId, "full"), text);
  fs.writeFileSync(layout.manifestFile(featureId), JSON.stringify({ entry_count: entries, head_hash: prev, last_verified_at: null, last_verified_result: null }));
  return { layout, averageBytes: entries === 0 ? 0 : bytes / entries };
}

/** A fresh Ed25519 signer whose public key the workspace commits. */
export async function fixtureSigner(layout) {
  const { generateKeyPairSync } = await import("node:crypto");
  const { signerFor } = await dist("domains/attest/ed25519-keys.js");
  const { writePublicKey } = await dist("domains/attest/public-keys.js");
  const signer = signerFor(generateKeyPairSync("ed25519").privateKey);
  writePublicKey(layout, signer);
  return signer;
}

/** Attests every chained gate run of `featureId` the way a gate run does (the attestation and its receipt). */
export async function attestChainFixture(layout, featureId, signer) {
  const { attestGateRun } = await dist("domains/attest/gate-seal.js");
  const dir = layout.evidenceDir(featureId);
  const entries = new Map(
    fs
      .readFileSync(layout.chainFile(featureId), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .map((e) => [e.artifact_rel_path, e]),
  );
  for (const name of fs.readdirSync(dir)) {
    const m = /^gate-full-(\d+)\.json$/.exec(name);
    if (!m) continue;
    const bytes = fs.readFileSync(path.join(dir, name));
    const rel = layout.relative(path.join(dir, name));
    await attestGateRun(layout, signer, { feature_id: featureId, mode: "full", epochMs: Number(m[1]), rel_path: rel, bytes, evidence: JSON.parse(bytes.toString()) }, entries.get(rel) ?? null, { durable: false });
  }
}
