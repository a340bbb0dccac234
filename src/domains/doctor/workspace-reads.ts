// Reads of workspace state shared by several doctor checks, memoised per doctor run. Read-only.
import type { DoctorContext } from "./check-types.js";
import { FEATURE_STATUSES, type FeatureStatus } from "../features/index.js";
import { isNoLeasePlaceholder, parseLease, readLeaseFiles, type LeaseFile, type RunLease } from "../runs/index.js";
import { auditTimeline, type TimelineAudit } from "../replay/index.js";
import { readBytesBounded, refusalProblem } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { loadGatesSnapshot } from "../../config/gates-snapshot.js";
import type { GatesLoadResult } from "../../config/gates-loader.js";

export interface IndexRead {
  exists: boolean;
  /** Why index.json cannot be used, when it cannot. */
  problem: string | null;
  lists: Record<FeatureStatus, string[]>;
  /**
   * The upstream orchestrator's copy of its lease in index.json (`runtime_sessions`), when it holds a
   * run (not the "none" placeholder). Its `feature_sessions` are checked by DRIFT_005.
   */
  runtimeSessions: RunLease | null;
}

export function readFeatureIndex(ctx: DoctorContext): IndexRead {
  return ctx.memo("feature-index", () => {
    const lists: Record<FeatureStatus, string[]> = { active: [], blocked: [], merged: [] };
    const read = readBytesBounded(ctx.layout.featuresIndex, READ_LIMITS.featureIndex);
    if (read.status === "missing") return { exists: false, problem: null, lists, runtimeSessions: null };
    if (read.status !== "ok") return { exists: true, problem: refusalProblem(read), lists, runtimeSessions: null };
    const text = read.bytes.toString("utf8");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { exists: true, problem: `is not valid JSON (${(err as Error).message})`, lists, runtimeSessions: null };
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { exists: true, problem: "is not a JSON object", lists, runtimeSessions: null };
    // Other keys (the upstream orchestrator's locks, lock_leases, blocked_queue, collision_records, …) are its own.
    const record = value as Record<string, unknown>;
    for (const status of FEATURE_STATUSES) {
      const list = record[status] ?? [];
      if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) return { exists: true, problem: `${status} is not a list of feature ids`, lists, runtimeSessions: null };
      lists[status] = list as string[];
    }
    const sessions = record.runtime_sessions;
    const runtimeSessions = sessions === undefined || isNoLeasePlaceholder(sessions) ? null : parseLease(sessions, "index");
    return { exists: true, problem: null, lists, runtimeSessions };
  });
}

export type LeaseRead = LeaseFile;

/** Every `.aop/runtime/<instance>/run-lease.json` (ours use `default`; the upstream orchestrator any name). */
export function readLeases(ctx: DoctorContext): LeaseRead[] {
  return ctx.memo("leases", () => readLeaseFiles(ctx.layout));
}

/** gates.yaml as loaded (DRIFT_002 checks it, DRIFT_014 its upstream shape), from its snapshot when it answers. */
export function readGates(ctx: DoctorContext): Promise<GatesLoadResult> {
  return ctx.memo("gates", () => loadGatesSnapshot(ctx.layout));
}

/** One full read of a run's timeline (DRIFT_006 checks what it found, DRIFT_013 its old-shape count). */
export function readTimelineAudit(ctx: DoctorContext, runId: string): Promise<TimelineAudit> {
  return ctx.memo(`timeline-audit:${runId}`, () => auditTimeline(ctx.layout, runId));
}
