// Writing gate evidence: immutable `gate-<mode>-<epoch_ms>.json` files and the `latest-<mode>.json` copy.
import { AopError } from "../../core/errors.js";
import { isoUtc } from "../../core/clock.js";
import { createFileAtomic, writeFileAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { serializeEvidence, type GateEvidence } from "./evidence-types.js";

export interface WrittenEvidence {
  path: string;
  rel_path: string;
  epochMs: number;
  bytes: Buffer;
  evidence: GateEvidence;
}

const MAX_EPOCH_BUMPS = 10_000;

/**
 * Write a run's evidence under `gate-<mode>-<epoch_ms>.json`, never replacing an existing file: when two
 * runs of a mode finish in the same millisecond, the later one takes the next free millisecond. The name's
 * epoch is the run's recorded time, so `finished_at` is set to it (at most a few ms later than measured).
 */
export function writeGateEvidence(layout: WorkspaceLayout, evidence: Omit<GateEvidence, "finished_at">, finishedMs: number, options: { durable?: boolean } = {}): WrittenEvidence {
  for (let epochMs = finishedMs; epochMs < finishedMs + MAX_EPOCH_BUMPS; epochMs++) {
    const { feature_id, mode, profile, overall, started_at, step_results } = evidence;
    const full: GateEvidence = { feature_id, mode, profile, overall, started_at, finished_at: isoUtc(epochMs), step_results };
    const bytes = Buffer.from(serializeEvidence(full));
    const file = layout.gateEvidence(feature_id, mode, epochMs);
    if (createFileAtomic(file, bytes, options)) return { path: file, rel_path: layout.relative(file), epochMs, bytes, evidence: full };
  }
  throw new AopError("io_error", `could not find a free evidence file name for mode '${evidence.mode}' near ${finishedMs}`);
}

/** The recorded time of the evidence `latest-<mode>.json` currently copies, or null when unknown. */
function latestRecordedMs(file: string): number | null {
  const read = readBytesBounded(file, READ_LIMITS.evidence);
  if (read.status !== "ok") return null; // missing, or not a file we trust: replaced by the new copy
  try {
    const parsed = JSON.parse(read.bytes.toString("utf8")) as { finished_at?: unknown };
    const ms = typeof parsed.finished_at === "string" ? Date.parse(parsed.finished_at) : NaN;
    return Number.isNaN(ms) ? null : ms;
  } catch {
    return null;
  }
}

/**
 * Make `latest-<mode>.json` a byte copy of `written` unless it already copies newer evidence (runs of one
 * mode can finish out of order across processes). Call under the feature's evidence lock.
 * Returns whether the copy now holds `written`.
 */
export function updateLatestLocked(layout: WorkspaceLayout, written: WrittenEvidence, options: { durable?: boolean } = {}): boolean {
  const file = layout.latestEvidence(written.evidence.feature_id, written.evidence.mode);
  const current = latestRecordedMs(file);
  if (current !== null && current > written.epochMs) return false;
  writeFileAtomic(file, written.bytes, options);
  return true;
}
