// The worker thread of timeline-audit-pool.ts: takes the next run from the shared counter, audits it,
// posts the outcome, until no run is left.
import { parentPort, workerData } from "node:worker_threads";
import { WorkspaceLayout } from "../store/layout.js";
import { settleAudit } from "./timeline-audit-outcome.js";

const { root, runIds, next } = workerData as { root: string; runIds: string[]; next: Int32Array };

async function auditRuns(): Promise<void> {
  const layout = new WorkspaceLayout(root);
  for (;;) {
    const index = Atomics.add(next, 0, 1);
    if (index >= runIds.length) return;
    parentPort!.postMessage({ index, result: await settleAudit(layout, runIds[index]!) });
  }
}

void auditRuns();
