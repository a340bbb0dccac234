// DRIFT_006's timeline audits on two threads: a worker thread (timeline-audit-worker.ts) and the main
// thread, once its other checks leave it idle, take the next run from one shared counter, so the
// audits overlap DRIFT_007's chain walk and whichever thread is free does the next one. The results
// are put back in run order, each exactly what auditTimeline returned or threw in this thread (an
// AopError keeps its code and message, the only parts DRIFT_006 reports). Small workspaces are
// audited in this thread alone: a worker costs ~25 ms to start. Measurements: docs/performance.md.
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import type { WorkspaceLayout } from "../store/layout.js";
import { auditTimeline, type TimelineAudit } from "../domains/replay/index.js";
import { reviveAudit, settleAudit, type SettledAudit } from "./timeline-audit-outcome.js";

/** Below this many bytes of timelines one thread is faster than starting a second. */
export const MIN_WORKER_BYTES = 8 * 1024 * 1024;

/** The worker's own bundle (scripts/bundle-bins.mjs), else its module of the modular build; both relative to this module's file (in the CLI bundle too: scripts/bundle-plugins.mjs gives each module its own import.meta.url). */
function workerFile(): URL | null {
  for (const name of ["timeline-audit-worker.bundle.cjs", "timeline-audit-worker.js"]) {
    const file = new URL(`../app/${name}`, import.meta.url);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

function timelineBytes(layout: WorkspaceLayout, runIds: readonly string[]): number {
  let bytes = 0;
  for (const runId of runIds) bytes += fs.statSync(layout.timelineFile(runId), { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}

/** Audits each run: its TimelineAudit, or what auditing it threw, in the order of `runIds`. */
export async function auditTimelines(layout: WorkspaceLayout, runIds: readonly string[], minWorkerBytes = MIN_WORKER_BYTES, worker: () => URL | null = workerFile): Promise<(TimelineAudit | Error)[]> {
  const file = runIds.length < 2 || timelineBytes(layout, runIds) < minWorkerBytes ? null : worker();
  if (file === null) {
    const out: (TimelineAudit | Error)[] = [];
    for (const runId of runIds) {
      try {
        out.push(await auditTimeline(layout, runId));
      } catch (err) {
        out.push(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return out;
  }
  const next = new Int32Array(new SharedArrayBuffer(4));
  const results: (SettledAudit | undefined)[] = new Array(runIds.length);
  const mine = new Set<number>(); // runs this thread audits or audited
  let remaining = runIds.length;
  return new Promise((resolve) => {
    const settle = (index: number, result: SettledAudit) => {
      if (results[index] !== undefined) return;
      results[index] = result;
      if (--remaining === 0) resolve(results.map((r) => reviveAudit(r!)));
    };
    const auditHere = async (index: number) => {
      mine.add(index);
      settle(index, await settleAudit(layout, runIds[index]!));
    };
    const help = async (): Promise<void> => {
      const index = Atomics.add(next, 0, 1);
      if (index >= runIds.length) return;
      await auditHere(index);
      setImmediate(help);
    };
    // A worker that could not start, died or ended: no run is handed out any more, and this thread
    // audits the ones it left undone (claimed but not reported, or never claimed; none after a worker
    // that reported all it claimed and found the counter spent).
    let tookOver = false;
    const takeOver = async () => {
      if (tookOver) return;
      tookOver = true;
      Atomics.store(next, 0, runIds.length);
      for (let index = 0; index < runIds.length; index++) if (results[index] === undefined && !mine.has(index)) await auditHere(index);
    };
    try {
      const worker = new Worker(file, { workerData: { root: layout.root, runIds, next } });
      worker.on("message", ({ index, result }: { index: number; result: SettledAudit }) => settle(index, result));
      worker.on("error", () => void takeOver());
      worker.on("exit", () => void takeOver());
    } catch {
      void takeOver();
    }
    // Once the checks after DRIFT_006 leave this thread idle, it takes runs from the same counter.
    setImmediate(help);
  });
}
