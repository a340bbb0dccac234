// Foundation figures: canonical JSON + hash, lock cycles, CLI start-up (interactive: ≤ 1.5× node, DESIGN §26).
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { aop, compareProcesses, dist, node, opsPerSec, record, tempDir } from "../lib.mjs";

const SUITE = "foundation";

function timelineEntry(i) {
  return {
    ts: "2026-11-30T12:00:00.123Z", sequence: i, run_id: "run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", session_id: "sess-1",
    actor_type: "orchestrator", feature_id: "feat_a", tool_name: "feature.set_status", mutating: true,
    operation_id: `op-${i}-abcdef`, idempotency_status: "new", request_hash: "sha256:" + "ab".repeat(32),
    result: "ok", error_code: null, latency_ms: 3,
  };
}

export async function run() {
  const { hashCanonical } = await dist("core/hash.js");
  let i = 0;
  const canon = await opsPerSec(() => hashCanonical(timelineEntry(i++)), { batch: 500 });
  const plain = await opsPerSec(() => createHash("sha256").update(JSON.stringify(timelineEntry(i++))).digest("hex"), { batch: 500 });
  record({ suite: SUITE, name: "canonical JSON + sha256 of a 14-field entry", value: canon, unit: "ops/s", baselineName: "JSON.stringify + sha256", baselineValue: plain, higherIsBetter: true });

  const { acquireLock } = await dist("store/lock.js");
  const dir = tempDir();
  const lockPath = path.join(dir, "bench.lock");
  const cycles = await opsPerSec(async () => (await acquireLock(lockPath))(), { batch: 200 });
  const rawPath = path.join(dir, "raw.lock");
  const raw = await opsPerSec(() => {
    fs.closeSync(fs.openSync(rawPath, "wx"));
    fs.unlinkSync(rawPath);
  }, { batch: 200 });
  record({ suite: SUITE, name: "lock acquire + release", value: cycles, unit: "cycles/s", baselineName: "raw exclusive create + unlink", baselineValue: raw, target: { min: 0.5, label: "≥ 0.50× raw" }, higherIsBetter: true });
  fs.rmSync(dir, { recursive: true, force: true });

  const version = compareProcesses(aop(["--version"]), node(["-e", "0"]), 15);
  record({ suite: SUITE, name: "aop --version, whole process (median of 15)", value: version.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: version.baselineMs, target: { max: 1.5, label: "≤ 1.5× node" } });
  const help = compareProcesses(aop(["--help"]), node(["-e", "0"]), 15);
  record({ suite: SUITE, name: "aop --help, whole process (median of 15)", value: help.subjectMs, unit: "ms", baselineName: "node -e 0", baselineValue: help.baselineMs, target: { max: 1.5, label: "≤ 1.5× node" } });
}
