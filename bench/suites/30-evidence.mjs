// Evidence figures: verifying a 10,000-entry chain, whole process, beside its floor row — the walk's
// essential work alone, bare (bench/floors/verify-walk.cjs), target ≤ 1.15× (DESIGN §26) — and beside
// sha256sum over the same files (for reference: the retired ≤ 1.0× target was below the floor)
// and the cost a chain append adds to a gate run (in-process, beside writing the evidence file).
import fs from "node:fs";
import path from "node:path";
import { writeChainFixture } from "../../scripts/chain-fixture.mjs";
import { aop, compareProcesses, dist, median, node, record, REPO_ROOT, tempDir } from "../lib.mjs";

export const VERIFY_FLOOR = path.join(REPO_ROOT, "bench", "floors", "verify-walk.cjs");

const SUITE = "evidence";
const FEATURE = "feat_bench";
const ENTRIES = 10_000;

/** A realistic ~2 KB evidence file: two steps that ran (with logs) and two that were skipped. */
function evidenceFor(layout, sha256Of, featureId, i, epoch) {
  const at = new Date(epoch).toISOString();
  const steps = [];
  for (const name of ["lint", "unit-tests", "integration-tests", "package"]) {
    const ran = name === "lint" || name === "unit-tests";
    let log_path = null;
    let log_sha256 = null;
    if (ran) {
      const file = layout.stepLog(featureId, epoch, "full", name);
      const text = `run ${i} ${name}: ${"ok ".repeat(40)}\n`;
      fs.writeFileSync(file, text);
      log_path = layout.relative(file);
      log_sha256 = sha256Of(text);
    }
    steps.push({ name, cmd: ["npm", "run", name, "--", "--reporter=dot"], exit_code: ran ? 0 : null, timed_out: false, attempts: ran ? 1 : 0, skipped: !ran, skip_reason: ran ? null : "an earlier step failed ('unit-tests') in a previous wave of this gate run", started_at: ran ? at : null, finished_at: ran ? at : null, log_path, log_sha256 });
  }
  return { feature_id: featureId, mode: "full", profile: "default", overall: "pass", started_at: at, finished_at: at, step_results: steps };
}

/** The 10,000-entry chain (scripts/chain-fixture.mjs): spawning 10,000 gates would take hours. */
export async function buildFixture(root) {
  return writeChainFixture(root, FEATURE, ENTRIES, evidenceFor);
}

async function verifyFigure() {
  const root = tempDir();
  fs.mkdirSync(path.join(root, ".git"));
  const { layout, averageBytes } = await buildFixture(root);
  const check = aop(["--root", root, "evidence", "verify", "--feature-id", FEATURE, "--json"], { encoding: "utf8" });
  const { spawnSync } = await import("node:child_process");
  const probe = spawnSync(check.cmd, check.args, { encoding: "utf8" });
  const report = JSON.parse(probe.stdout);
  if (!report.valid || report.entry_count !== ENTRIES) throw new Error(`fixture does not verify: ${probe.stdout}`);
  const featureDir = layout.featureDir(FEATURE);
  // The same files verify reads: evidence folder (artifacts, chain, manifest, latest) and the step logs.
  const baseline = { cmd: "sh", args: ["-c", `find "${featureDir}" -type f -print0 | xargs -0 sha256sum > /dev/null`] };
  const files = spawnSync("sh", ["-c", `find "${featureDir}" -type f | wc -l`], { encoding: "utf8" }).stdout.trim();
  const entries = `${ENTRIES.toLocaleString("en-US")} entries (${Math.round(averageBytes)} B artifacts, ${files} files)`;
  const floor = compareProcesses(check, node([VERIFY_FLOOR, root, FEATURE]), 11);
  record({ suite: SUITE, name: `verify ${entries}, median of 11`, value: floor.subjectMs, unit: "ms", baselineName: "floor: bench/floors/verify-walk.cjs", baselineValue: floor.baselineMs, target: { max: 1.15, label: "≤ 1.15× floor" } });
  const { subjectMs, baselineMs } = compareProcesses(check, baseline, 11);
  record({ suite: SUITE, name: `verify ${entries}, beside sha256sum`, value: subjectMs, unit: "ms", baselineName: "find | xargs sha256sum, same files", baselineValue: baselineMs });
  fs.rmSync(root, { recursive: true, force: true });
}

async function appendFigure() {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { writeGateEvidence, updateLatestLocked } = await dist("domains/evidence/evidence-files.js");
  const { appendChainEntryLocked, evidenceLockPath } = await dist("domains/evidence/chain-store.js");
  const { acquireLock } = await dist("store/lock.js");
  const { sha256Of } = await dist("core/hash.js");
  const root = tempDir();
  const layout = new WorkspaceLayout(root);
  fs.mkdirSync(layout.featureLogsDir(FEATURE), { recursive: true });
  const write = [];
  const append = [];
  const appendNoSync = [];
  const lock = [];
  const runs = 400;
  for (let i = 0; i < runs; i++) {
    const epoch = 1_800_000_000_000 + i * 1000;
    const { finished_at: _f, ...evidence } = evidenceFor(layout, sha256Of, FEATURE, i, epoch);
    let t = performance.now();
    const written = writeGateEvidence(layout, evidence, epoch); // durable, as in a real run
    write.push(performance.now() - t);
    t = performance.now();
    const release = await acquireLock(evidenceLockPath(layout, FEATURE));
    lock.push(performance.now() - t);
    // Alternate the line's fdatasync on and off to show how much of the cost is the disk flush.
    const durable = i % 4 !== 3;
    t = performance.now();
    appendChainEntryLocked(layout, FEATURE, written.path, new Date(epoch).toISOString(), { durable });
    (durable ? append : appendNoSync).push(performance.now() - t);
    // Taken for latest-<mode>.json whether or not integrity is on, so not part of the chain's cost.
    updateLatestLocked(layout, written);
    release();
  }
  const warm = (xs) => xs.slice(10);
  record({ suite: SUITE, name: `chain append per gate run (median of ${append.length - 10})`, value: median(warm(append)), unit: "ms", baselineName: "write the evidence file", baselineValue: median(warm(write)), target: { maxValue: 2, label: "≤ 2 ms" } });
  record({ suite: SUITE, name: "chain append without the line's fdatasync (reference)", value: median(warm(appendNoSync)), unit: "ms" });
  record({ suite: SUITE, name: "evidence lock acquire (shared with latest-*, for reference)", value: median(warm(lock)), unit: "ms" });
  fs.rmSync(root, { recursive: true, force: true });
}

export async function run() {
  await appendFigure();
  await verifyFigure();
}
