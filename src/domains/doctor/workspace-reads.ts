// Reads of workspace state shared by several doctor checks, memoised per doctor run. Read-only.
import fs from "node:fs";
import path from "node:path";
import type { DoctorContext } from "./check-types.js";
import { FEATURE_STATUSES, type FeatureStatus } from "../features/index.js";
import { parseLease, type RunLease } from "../runs/index.js";
import { idProblem } from "../../core/ids.js";
import { describeRefusal, readBytesBounded, refusalCode, type Refusal } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";

/** A file the doctor could not read, as the rest of a finding's sentence, with the store's code. */
export function refusalProblem(refusal: Refusal): string {
  return `${describeRefusal(refusal)} [${refusalCode(refusal)}]`;
}

export interface IndexRead {
  exists: boolean;
  /** Why index.json cannot be used, when it cannot. */
  problem: string | null;
  lists: Record<FeatureStatus, string[]>;
}

export function readFeatureIndex(ctx: DoctorContext): IndexRead {
  return ctx.memo("feature-index", () => {
    const lists: Record<FeatureStatus, string[]> = { active: [], blocked: [], merged: [] };
    const read = readBytesBounded(ctx.layout.featuresIndex, READ_LIMITS.featureIndex);
    if (read.status === "missing") return { exists: false, problem: null, lists };
    if (read.status !== "ok") return { exists: true, problem: refusalProblem(read), lists };
    const text = read.bytes.toString("utf8");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { exists: true, problem: `is not valid JSON (${(err as Error).message})`, lists };
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { exists: true, problem: "is not a JSON object", lists };
    for (const status of FEATURE_STATUSES) {
      const list = (value as Record<string, unknown>)[status] ?? [];
      if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) return { exists: true, problem: `${status} is not a list of feature ids`, lists };
      lists[status] = list as string[];
    }
    return { exists: true, problem: null, lists };
  });
}

export interface LeaseRead {
  instance: string;
  /** Workspace-relative path of the lease file. */
  ref: string;
  lease: RunLease | null;
  problem: string | null;
}

/** Every `.aop/runtime/<instance>/run-lease.json` (ours use `default`; the upstream orchestrator any name). */
export function readLeases(ctx: DoctorContext): LeaseRead[] {
  return ctx.memo("leases", () => {
    let dirs: fs.Dirent[];
    try {
      dirs = fs.readdirSync(ctx.layout.runtimeDir, { withFileTypes: true });
    } catch {
      return [];
    }
    const out: LeaseRead[] = [];
    for (const dir of dirs.filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      if (idProblem(dir.name) !== null) continue;
      const file = path.join(ctx.layout.runtimeDir, dir.name, "run-lease.json");
      const read = readBytesBounded(file, READ_LIMITS.runLease);
      if (read.status === "missing") continue;
      const ref = ctx.layout.relative(file);
      if (read.status !== "ok") {
        out.push({ instance: dir.name, ref, lease: null, problem: refusalProblem(read) });
        continue;
      }
      try {
        const lease = parseLease(JSON.parse(read.bytes.toString("utf8")), dir.name);
        out.push({ instance: dir.name, ref, lease, problem: lease ? null : "is not a run lease (run_id and lease_expires_at required)" });
      } catch {
        out.push({ instance: dir.name, ref, lease: null, problem: "is not valid JSON" });
      }
    }
    return out;
  });
}
