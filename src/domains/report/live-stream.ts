// The event stream of a served page: new complete lines of one run's timeline from a byte cursor, as
// chunks in the page's encoding, plus the runs list when it changes. Polls the file (every 250 ms):
// simple, and the same on every platform and file system.
import { setTimeout as sleep } from "node:timers/promises";
import type { WorkspaceLayout } from "../../store/layout.js";
import { listRuns } from "../replay/index.js";
import { DEFAULT_BUDGET, runView } from "./gather-runs.js";
import { regularFileProblem } from "./regular-file.js";
import { encodeTimeline } from "./timeline-codec.js";
import { readRunRecords } from "./timeline-read.js";

export const POLL_MS = 250;
const RUNS_EVERY_MS = 2_000;
const KEEPALIVE_MS = 15_000;

function event(name: string, data: unknown, id?: number): string {
  return `event: ${name}\n${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** node:timers/promises drops its abort listener when the timer fires: a long follow adds no listener per poll. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

export async function streamRun(layout: WorkspaceLayout, runId: string, fromCursor: number, write: (text: string) => void, signal: AbortSignal): Promise<void> {
  let cursor = fromCursor;
  let lastRuns = "";
  let lastRunsAt = 0;
  let lastWriteAt = Date.now();
  write("retry: 1000\n\n");
  while (!signal.aborted) {
    const { size, missing } = regularFileProblem(layout.timelineFile(runId));
    if (!missing && size < cursor) {
      // Replaced or pruned under us: the page reloads the run, we start over.
      write(event("reset", { run_id: runId }));
      cursor = 0;
    } else if (size > cursor) {
      const read = await readRunRecords(layout, runId, { fromOffset: cursor, maxEntries: DEFAULT_BUDGET.maxEntriesPerRun, maxBytes: DEFAULT_BUDGET.maxBytesPerRun, sinceMs: null });
      if (read.problem === null && read.cursor > cursor) {
        cursor = read.cursor;
        if (read.records.length > 0) {
          write(event("entries", { run_id: runId, cursor, chunk: encodeTimeline(runId, read.records) }, cursor));
          lastWriteAt = Date.now();
        }
      }
    }
    const now = Date.now();
    if (now - lastRunsAt >= RUNS_EVERY_MS) {
      lastRunsAt = now;
      const runs = (await listRuns(layout)).map(runView);
      const text = JSON.stringify(runs);
      if (text !== lastRuns) {
        lastRuns = text;
        write(event("runs", { runs }));
        lastWriteAt = now;
      }
    }
    if (now - lastWriteAt >= KEEPALIVE_MS) {
      write(": keep-alive\n\n");
      lastWriteAt = now;
    }
    await pause(POLL_MS, signal);
  }
}
