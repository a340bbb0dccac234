// Doctor figures: `aop doctor --json` on a generated workspace (200 features, 100 runs × 1,000 timeline
// entries, 200 chains × 20 entries, 50 checkpoints) beside a plain read of every file it reads (the list
// recorded from a run of the doctor itself, bench/read-recorder.mjs), on the same workspace doubled, and
// on it after 2,000 earlier doctor runs. The plain read is its floor row: target ≤ 1.15× (DESIGN §26).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { aop, CLI_BIN, compareProcesses, dist, node, record, REPO_ROOT, tempDir } from "../lib.mjs";
import { generateCheckpoint } from "./40-checkpoints.mjs";

const SUITE = "doctor";
// max_runs is raised so the doctor's own call (a new run) does not prune the generated timelines.
const POLICY = "version: 1\ninnovation:\n  tamper_evident_evidence: true\nobservability:\n  replay:\n    retention:\n      max_runs: 1000\n  evidence_integrity:\n    enabled: true\n";

export async function generate(scale) {
  const root = tempDir("aop-bench-doctor-");
  fs.mkdirSync(path.join(root, ".git"));
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { fixedClock } = await dist("core/clock.js");
  const { createFeature } = await dist("domains/features/feature-store.js");
  const { TimelineWriter } = await dist("domains/replay/timeline-writer.js");
  const { writeGateEvidence } = await dist("domains/evidence/evidence-files.js");
  const { commitGateEvidence } = await dist("domains/evidence/evidence-commit.js");
  const { loadPolicy } = await dist("config/policy-loader.js");
  const { sha256Of } = await dist("core/hash.js");
  const layout = new WorkspaceLayout(root);
  fs.mkdirSync(layout.orchestratorDir, { recursive: true });
  fs.writeFileSync(layout.policyFile, POLICY);
  const policy = await loadPolicy(layout);
  const clock = fixedClock("2026-10-01T00:00:00.000Z");

  for (let f = 0; f < 200 * scale; f++) await createFeature(layout, clock, { feature_id: `feat_${f}` });

  const writer = new TimelineWriter(layout, () => 1_000_000);
  for (let r = 0; r < 100 * scale; r++) {
    for (let i = 0; i < 1000; i++) {
      await writer.append({
        ts: new Date(clock.now() + i).toISOString(), run_id: `run-${r}`, session_id: null, actor_type: "orchestrator", feature_id: `feat_${i % 200}`,
        tool_name: i % 3 ? "feature.get" : "feature.set_status", mutating: i % 3 === 0, operation_id: i % 3 ? null : `op-${r}-${i}`,
        idempotency_status: i % 3 ? "none" : "new", request_hash: i % 3 ? null : sha256Of(`${r}-${i}`), result: i % 17 ? "ok" : "error",
        error_code: i % 17 ? null : "feature_not_found", latency_ms: 1.5,
      });
    }
  }
  writer.close();

  for (let f = 0; f < 200 * scale; f++) {
    const featureId = `feat_${f}`;
    for (let e = 0; e < 20; e++) {
      clock.advance(1000);
      const started = clock.now();
      const logFile = layout.stepLog(featureId, started, "full", "tests");
      const log = `run ${e}: ok\n`;
      fs.mkdirSync(path.dirname(logFile), { recursive: true });
      fs.writeFileSync(logFile, log);
      const at = new Date(started).toISOString();
      const written = writeGateEvidence(layout, {
        feature_id: featureId, mode: "full", profile: "default", overall: "pass", started_at: at,
        step_results: [{ name: "tests", cmd: ["npm", "test"], exit_code: 0, timed_out: false, attempts: 1, skipped: false, skip_reason: null, started_at: at, finished_at: at, log_path: layout.relative(logFile), log_sha256: sha256Of(log) }],
      }, started + 5, { durable: false });
      await commitGateEvidence(layout, clock, policy, written, { recordState: false, durable: false });
    }
  }

  fs.mkdirSync(layout.checkpointsDir, { recursive: true });
  for (let c = 0; c < 50 * scale; c++) {
    const doc = generateCheckpoint(c);
    fs.writeFileSync(layout.checkpointFile(doc.skill), JSON.stringify(doc, null, 2));
  }
  fs.mkdirSync(layout.memoryDir, { recursive: true });
  fs.writeFileSync(layout.currentStateFile, "# Current State\n\n## Objective\nShip the doctor\n\n## Current Step\nBench\n\n## Key Decisions\nNone\n\n## Next Action\nMeasure\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n");
  return root;
}

/** The files `aop doctor --json` reads in `root` and their bytes, recorded from one run (written to `listFile`). */
function recordReads(root, listFile) {
  const recorder = path.join(REPO_ROOT, "bench", "read-recorder.mjs");
  const r = spawnSync(process.execPath, ["--import", recorder, CLI_BIN, "doctor", "--json", "--root", root], { env: { ...process.env, AOP_BENCH_RECORD_ROOT: root, AOP_BENCH_RECORD_OUT: listFile }, stdio: ["ignore", "ignore", "pipe"] });
  if (r.error || !fs.existsSync(listFile)) throw new Error(`recording the doctor's reads failed: ${r.error ?? r.stderr}`);
  const { files } = JSON.parse(fs.readFileSync(listFile, "utf8"));
  return { count: Object.keys(files).length, bytes: Object.values(files).reduce((a, b) => a + b, 0) };
}

/**
 * A copy of `root` whose ledger holds `runs` more doctor.run records like one already there: a
 * workspace where the doctor was run that often (each run records its whole report).
 */
async function agedCopy(root, runs) {
  const { WorkspaceLayout } = await dist("store/layout.js");
  const { recordPath } = await dist("store/ledger-files.js");
  const copy = tempDir("aop-bench-doctor-aged-");
  fs.cpSync(root, copy, { recursive: true });
  const layout = new WorkspaceLayout(copy);
  const records = fs.readdirSync(layout.ledgerDir, { recursive: true }).filter((n) => n.endsWith(".json")).map((n) => path.join(layout.ledgerDir, n));
  const doctor = records.map((file) => JSON.parse(fs.readFileSync(file, "utf8"))).find((r) => r.tool_name === "doctor.run");
  if (!doctor) throw new Error("the workspace holds no doctor.run record to copy");
  for (let i = 0; i < runs; i++) {
    const operationId = `op-aged-${i}`;
    const file = recordPath(layout, operationId);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...doctor, operation_id: operationId }));
  }
  return copy;
}

export async function run() {
  process.stderr.write("doctor bench: generating workspaces (this takes a while)...\n");
  const single = await generate(1);
  const double = await generate(2);
  const listFile = path.join(tempDir("aop-bench-doctor-reads-"), "reads.json");
  const reads = recordReads(single, listFile);
  const base = compareProcesses(aop(["doctor", "--json", "--root", single]), node([path.join(REPO_ROOT, "bench", "read-list.mjs"), listFile]), 5);
  record({
    suite: SUITE,
    name: `aop doctor --json, generated workspace (median of 5)`,
    value: base.subjectMs,
    unit: "ms",
    baselineName: `floor: read its ${reads.count.toLocaleString("en-US")} files (${(reads.bytes / 1e6).toFixed(1)} MB)`,
    baselineValue: base.baselineMs,
    target: { max: 1.15, label: "≤ 1.15× floor" },
  });
  const doubled = compareProcesses(aop(["doctor", "--json", "--root", double]), aop(["doctor", "--json", "--root", single]), 5);
  record({ suite: SUITE, name: "aop doctor --json, the workspace doubled", value: doubled.subjectMs, unit: "ms", baselineName: "single workspace", baselineValue: doubled.baselineMs, target: { max: 2, label: "≤ 2.0× single" } });
  const aged = await agedCopy(single, 2_000);
  const ageing = compareProcesses(aop(["doctor", "--json", "--root", aged]), aop(["doctor", "--json", "--root", single]), 5);
  record({ suite: SUITE, name: "aop doctor --json after 2,000 earlier doctor runs (their ledger records)", value: ageing.subjectMs, unit: "ms", baselineName: "the same workspace without them", baselineValue: ageing.baselineMs, target: { max: 1.25, label: "≤ 1.25× without" } });
  fs.rmSync(aged, { recursive: true, force: true });
  fs.rmSync(single, { recursive: true, force: true });
  fs.rmSync(double, { recursive: true, force: true });
  fs.rmSync(path.dirname(listFile), { recursive: true, force: true });
}
