// Worker: appends a gate run to a feature's chain, then anchors the chain, over and over (the path of a
// gate run with anchor_after_gate, without spawning steps); prints each anchored size; runs until killed,
// or for `count` rounds. Signs with the key AOP_SIGNING_KEY names.
import fs from "node:fs";
const [root, featureId, count] = process.argv.slice(2);
const dist = process.env.AOP_DIST_URL;
const { WorkspaceLayout } = await import(dist + "/store/layout.js");
const { policyDefaults } = await import(dist + "/config/policy-loader.js");
const { systemClock } = await import(dist + "/core/clock.js");
const { sha256Of } = await import(dist + "/core/hash.js");
const { writeGateEvidence } = await import(dist + "/domains/evidence/evidence-files.js");
const { commitGateEvidence } = await import(dist + "/domains/evidence/evidence-commit.js");
const { anchorFeature } = await import(dist + "/domains/attest/anchor-service.js");
const { loadSigner } = await import(dist + "/domains/attest/signing-key.js");
const { readCommittedKeys } = await import(dist + "/domains/attest/public-keys.js");
const layout = new WorkspaceLayout(root);
const policy = policyDefaults();
policy.innovation.tamper_evident_evidence = true;
policy.observability.evidence_integrity.enabled = true;
const signer = loadSigner(process.env.AOP_SIGNING_KEY);
const limit = count === undefined ? Infinity : Number(count);
for (let i = 0; i < limit; i++) {
  const now = systemClock.now();
  const logFile = layout.stepLog(featureId, now, "full", `p${process.pid}-${i}`);
  const log = `worker ${process.pid} run ${i}\n`;
  fs.mkdirSync(layout.featureLogsDir(featureId), { recursive: true });
  fs.writeFileSync(logFile, log);
  const at = new Date(now).toISOString();
  const written = writeGateEvidence(layout, {
    feature_id: featureId, mode: "full", profile: "default", overall: "pass", started_at: at,
    step_results: [{ name: "t", cmd: ["true"], exit_code: 0, timed_out: false, attempts: 1, skipped: false, skip_reason: null, started_at: at, finished_at: at, log_path: layout.relative(logFile), log_sha256: sha256Of(log) }],
  }, now, { durable: false });
  await commitGateEvidence(layout, systemClock, policy, written, { recordState: false, durable: false });
  const anchor = await anchorFeature(layout, systemClock, signer, readCommittedKeys(layout).keys.values(), featureId, { warn: (m) => process.stderr.write(`warning: ${m}\n`) });
  process.stdout.write(`anchored ${anchor.tree_size}\n`);
}
