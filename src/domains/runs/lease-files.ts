// Every run lease of a workspace: `.aop/runtime/<instance>/run-lease.json` for any child folder of
// runtime/ (aop writes `default`; the upstream orchestrator a 12-hex instance id). Read-only.
import fs from "node:fs";
import path from "node:path";
import { idProblem } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readBytesBounded, refusalProblem } from "../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { isNoLeasePlaceholder, leaseState, parseLease, type RunLease } from "./lease.js";
import { compareText } from "../../core/compare-text.js";

export interface LeaseFile {
  instance: string;
  /** Absolute path of the lease file. */
  file: string;
  /** Workspace-relative path, for messages. */
  ref: string;
  /** The lease; null when the file is unusable (`problem`) or the upstream "no lease" placeholder. */
  lease: RunLease | null;
  problem: string | null;
}

/** Lease files in instance-name order; folders without one (replay/, operation-ledger/, …) are skipped. */
export function readLeaseFiles(layout: WorkspaceLayout): LeaseFile[] {
  let dirs: fs.Dirent[];
  try {
    dirs = fs.readdirSync(layout.runtimeDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: LeaseFile[] = [];
  for (const dir of dirs.filter((d) => d.isDirectory()).sort((a, b) => compareText(a.name, b.name))) {
    if (idProblem(dir.name) !== null) continue;
    const file = path.join(layout.runtimeDir, dir.name, "run-lease.json");
    const read = readBytesBounded(file, READ_LIMITS.runLease);
    if (read.status === "missing") continue;
    const ref = layout.relative(file);
    if (read.status !== "ok") {
      out.push({ instance: dir.name, file, ref, lease: null, problem: refusalProblem(read) });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(read.bytes.toString("utf8"));
    } catch {
      out.push({ instance: dir.name, file, ref, lease: null, problem: "is not valid JSON" });
      continue;
    }
    if (isNoLeasePlaceholder(value)) {
      out.push({ instance: dir.name, file, ref, lease: null, problem: null });
      continue;
    }
    const lease = parseLease(value, dir.name);
    out.push({ instance: dir.name, file, ref, lease, problem: lease ? null : "is not a run lease (run_id and lease_expires_at required)" });
  }
  return out;
}

const STATE_ORDER = { active: 0, expired: 1, released: 2 } as const;

/**
 * The lease that describes the workspace now: an active one before an expired one before a released
 * one, then the most recent heartbeat, then aop's own (`default`).
 */
export function currentLease(files: readonly LeaseFile[], nowMs: number): LeaseFile | null {
  let best: LeaseFile | null = null;
  let bestKey: [number, number, number] | null = null;
  for (const f of files) {
    if (!f.lease) continue;
    const heartbeat = Date.parse(f.lease.heartbeat_at);
    const key: [number, number, number] = [STATE_ORDER[leaseState(f.lease, nowMs)], -(Number.isNaN(heartbeat) ? 0 : heartbeat), f.instance === "default" ? 0 : 1];
    if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))) {
      best = f;
      bestKey = key;
    }
  }
  return best;
}
