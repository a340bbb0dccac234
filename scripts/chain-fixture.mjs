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
  const files = [];
  let prev = GENESIS_HASH;
  let text = "";
  let bytes = 0;
  for (let i = 0; i < entries; i++) {
    const epoch = 1_800_000_000_000 + i * 1000;
    text = JSON.stringify(evidenceFor(layout, sha256Of, featureId, i, epoch), null, 2) + "\n";
    bytes += text.length;
    const file = layout.gateEvidence(featureId, "full", epoch);
    fs.writeFileSync(file, text);
    files.push(file);
    const entry = buildChainEntry({ sequence: i, feature_id: featureId, artifact_rel_path: layout.relative(file), artifact_hash: sha256Of(text), prev_chain_hash: prev, created_at: new Date(epoch).toISOString() });
    lines.push(JSON.stringify(entry));
    prev = entry.chain_hash;
  }
  fs.writeFileSync(layout.chainFile(featureId), lines.join("\n") + "\n");
  fs.writeFileSync(layout.latestEvidence(featureId, "full"), text);
  fs.writeFileSync(layout.manifestFile(featureId), JSON.stringify({ entry_count: entries, head_hash: prev, last_verified_at: null, last_verified_result: null }));
  return { layout, files, averageBytes: entries === 0 ? 0 : bytes / entries };
}
