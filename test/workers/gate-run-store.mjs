// Shared by workers: one gate run written and committed through the store functions (evidence file with
// one step log, then the locked commit), without spawning anything.
import fs from "node:fs";

const dist = process.env.AOP_DIST_URL;
const { sha256Of } = await import(dist + "/core/hash.js");
const { writeGateEvidence } = await import(dist + "/domains/evidence/evidence-files.js");
const { commitGateEvidence } = await import(dist + "/domains/evidence/evidence-commit.js");
const { policyDefaults } = await import(dist + "/config/policy-loader.js");

export const integrityPolicy = policyDefaults();
integrityPolicy.innovation.tamper_evident_evidence = true;
integrityPolicy.observability.evidence_integrity.enabled = true;

/** Write run `i` of this process and commit it; returns the chain entry. */
export async function appendGateRun(layout, clock, featureId, i, options = {}) {
  return (await writeGateRun(layout, clock, featureId, i, options)).chain;
}

/** Write run `i` of this process and commit it; returns the evidence written and its chain entry. */
export async function writeGateRun(layout, clock, featureId, i, options = {}) {
  const now = clock.now();
  const logFile = layout.stepLog(featureId, now, "full", `p${process.pid}-${i}`);
  const log = `worker ${process.pid} run ${i}\n`;
  fs.mkdirSync(layout.featureLogsDir(featureId), { recursive: true });
  fs.writeFileSync(logFile, log);
  const at = new Date(now).toISOString();
  const written = writeGateEvidence(layout, {
    feature_id: featureId, mode: "full", profile: "default", overall: "pass", started_at: at,
    step_results: [{ name: "t", cmd: ["true"], exit_code: 0, timed_out: false, attempts: 1, skipped: false, skip_reason: null, started_at: at, finished_at: at, log_path: layout.relative(logFile), log_sha256: sha256Of(log) }],
  }, now, { durable: options.durable ?? true });
  const { chain } = await commitGateEvidence(layout, clock, integrityPolicy, written, { recordState: false, durable: options.durable ?? true, warn: (m) => process.stderr.write(`warning: ${m}\n`) });
  return { written, chain };
}
