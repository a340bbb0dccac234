// Benchmark helpers: every figure is measured beside a baseline in the same run and printed with the ratio.
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_BIN = path.join(REPO_ROOT, "bin", "aop.js");

export function dist(relative) {
  return import(pathToFileURL(path.join(REPO_ROOT, "dist", relative)).href);
}

export function tempDir(prefix = "aop-bench-") {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Operations per second of a synchronous or async function, run for at least `minMs`. */
export async function opsPerSec(fn, { minMs = 700, batch = 100 } = {}) {
  for (let i = 0; i < batch; i++) await fn(); // warm-up
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < batch; i++) await fn();
    count += batch;
    elapsed = performance.now() - start;
  }
  return (count / elapsed) * 1000;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function timeOnce(cmd, args, options) {
  const start = performance.now();
  const stdin = options?.input !== undefined ? "pipe" : "ignore";
  const r = spawnSync(cmd, args, { stdio: [stdin, "ignore", "pipe"], ...options });
  const ms = performance.now() - start;
  if (r.status !== 0 && !options?.allowFailure) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/**
 * Median wall time of each of several whole processes, measured interleaved (one run of each in turn) so
 * machine noise hits them alike. Each is {cmd, args, options}.
 */
export function medianTimes(processes, runs = 15) {
  const times = processes.map(() => []);
  for (const p of processes) timeOnce(p.cmd, p.args, p.options);
  for (let i = 0; i < runs; i++) processes.forEach((p, j) => times[j].push(timeOnce(p.cmd, p.args, p.options)));
  return times.map(median);
}

/** Median wall time of whole processes, measured interleaved with a baseline. */
export function compareProcesses(subject, baseline, runs = 15) {
  const [subjectMs, baselineMs] = medianTimes([subject, baseline], runs);
  return { subjectMs, baselineMs };
}

export const node = (args, options) => ({ cmd: process.execPath, args, options });

/**
 * The Checkpoint Protocol's reference CLI (scripts/checkpoint.mjs of its public repository), for the rows
 * that put `aop checkpoint` beside it: CHECKPOINT_REFERENCE names a copy (as for the parity tests; it is
 * not an npm package, and its code is not ours to commit). It finds its project as the parent of the
 * folder holding it, so it is copied into `<root>/scripts/`. Undefined, with a note, when unset.
 */
export function checkpointReference(root) {
  const source = process.env.CHECKPOINT_REFERENCE;
  if (!source) {
    process.stdout.write("  (CHECKPOINT_REFERENCE unset: the rows beside the Checkpoint Protocol's reference CLI are skipped)\n");
    return undefined;
  }
  fs.mkdirSync(path.join(root, "scripts"), { recursive: true });
  const copy = path.join(root, "scripts", "checkpoint.mjs");
  fs.copyFileSync(source, copy);
  return copy;
}
export const aop = (args, options) => ({ cmd: process.execPath, args: [CLI_BIN, ...args], options });

const rows = [];

/**
 * Record one figure. `higherIsBetter` decides how the target reads; `target` is a ratio bound
 * ({max} or {min}) or an absolute bound on the value ({maxValue} / {minValue}).
 */
export function record({ suite, name, value, unit, baselineName, baselineValue, target, higherIsBetter = false }) {
  const ratio = baselineValue ? value / baselineValue : null;
  let verdict = "";
  if (target) {
    let ok = true;
    if (target.max !== undefined) ok &&= ratio !== null && ratio <= target.max;
    if (target.min !== undefined) ok &&= ratio !== null && ratio >= target.min;
    if (target.maxValue !== undefined) ok &&= value <= target.maxValue;
    if (target.minValue !== undefined) ok &&= value >= target.minValue;
    verdict = `${ok ? "ok  " : "MISS"} ${target.label}`;
  }
  const row = { suite, name, value, unit, baselineName, baselineValue, ratio, verdict, higherIsBetter };
  rows.push(row);
  printRow(row);
  return row;
}

function fmt(value, unit) {
  if (value === undefined || value === null) return "";
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
}

let headerPrinted = false;
function printRow(row) {
  if (!headerPrinted) {
    process.stdout.write(`${"figure".padEnd(58)} ${"value".padStart(16)}  ${"baseline".padEnd(44)} ${"ratio".padStart(7)}  target\n`);
    headerPrinted = true;
  }
  const baseline = row.baselineName ? `${row.baselineName}: ${fmt(row.baselineValue, row.unit)}` : "";
  const ratio = row.ratio === null ? "" : `${row.ratio.toFixed(2)}×`;
  process.stdout.write(`${`[${row.suite}] ${row.name}`.padEnd(58)} ${fmt(row.value, row.unit).padStart(16)}  ${baseline.padEnd(44)} ${ratio.padStart(7)}  ${row.verdict}\n`);
}

export function allRows() {
  return rows;
}
