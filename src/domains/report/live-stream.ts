// The event stream of a served page: new complete lines of one run's timeline from a byte cursor, as
// chunks in the page's encoding, plus the runs list when it changes. Polls the file (every 250 ms):
// simple, and the same on every platform and file system.
import { setTimeout as sleep } from "node:timers/promises";
import type { WorkspaceLayout } from "../../store/layout.js";
import { listRuns } from "../replay/index.js";
import { runView } from "./gather-runs.js";
import { regularFileProblem } from "./regular-file.js";
import { encodeTimeline } from "./timeline-codec.js";
import { readRunRecords } from "./timeline-read.js";

const POLL_MS = 250;
const RUNS_EVERY_MS = 2_000;
const KEEPALIVE_MS = 15_000;

function event(name: string, data: unknown, id?: number): string {
  return `event: ${name}\n${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** node:timers/promises drops its abort listener when the timer fires: a long follow adds no listener per poll. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * What one poll reads and sends at most: the newest entries of the run's growth since the cursor, within
 * this many bytes (the page loads the run itself through /api/timeline, up to the report's 64 MiB, and
 * streams only what is appended after). Each event is sent once the one before has drained, so a live
 * stream's memory stays bounded whatever the run's size and however slowly its client reads.
 */
const LIVE_CHUNK_BYTES = 1024 * 1024;
const LIVE_CHUNK_ENTRIES = 5_000;

/** `write` returns false when the client's buffer is full; `drained` resolves once it has emptied (or the stream ends). */
export interface LiveSink {
  write(text: string): boolean;
  drained(signal: AbortSignal): Promise<void>;
}

export async function streamRun(layout: WorkspaceLayout, runId: string, fromCursor: number, sink: LiveSink, signal: AbortSignal): Promise<void> {
  const write = async (text: string): Promise<void> => {
    if (!sink.write(text)) await sink.drained(signal);
  };
  let cursor = fromCursor;
  let lastRuns = "";
  let lastRunsAt = 0;
  let lastWriteAt = Date.now();
  await write("retry: 1000\n\n");
  while (!signal.aborted) {
    const { size, missing } = regularFileProblem(layout.timelineFile(runId));
    if (!missing && size < cursor) {
      // Replaced or pruned under us: the page reloads the run, we start over.
      await write(event("reset", { run_id: runId }));
      cursor = 0;
    } else if (size > cursor) {
      const read = await readRunRecords(layout, runId, { fromOffset: cursor, maxEntries: LIVE_CHUNK_ENTRIES, maxBytes: LIVE_CHUNK_BYTES, sinceMs: null });
      if (read.problem === null && read.cursor > cursor) {
        cursor = read.cursor;
        if (read.records.length > 0) {
          await write(event("entries", { run_id: runId, cursor, chunk: encodeTimeline(runId, read.records) }, cursor));
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
        await write(event("runs", { runs }));
        lastWriteAt = now;
      }
    }
    if (now - lastWriteAt >= KEEPALIVE_MS) {
      await write(": keep-alive\n\n");
      lastWriteAt = now;
    }
    await pause(POLL_MS, signal);
  }
}
