// `--follow`: export new entries of live runs as they are written, until stopped. A failed pass is
// reported and retried with a growing pause; the cursors keep what was not delivered. A stop aborts the
// request in flight and starts no other, so SIGINT/SIGTERM end a long backlog at once.
import { setTimeout as sleep } from "node:timers/promises";
import { exportRun, type ExportOptions, type RunExport } from "./export-service.js";

const FOLLOW_POLL_MS = 500;
const MAX_ERROR_PAUSE_MS = 30_000;

export interface FollowHandlers {
  /** The runs to export in this pass (re-read each pass, so new runs are picked up). */
  runs(): Promise<string[]>;
  /** A pass that sent something for a run. */
  onExport(result: RunExport): void;
  onError(err: unknown, runId: string | null, pauseMs: number): void;
}

/** node:timers/promises drops its abort listener when the timer fires: a long follow adds no listener per poll. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

export async function followExports(options: ExportOptions, handlers: FollowHandlers, signal: AbortSignal, pollMs = FOLLOW_POLL_MS): Promise<void> {
  let errorPause = 0;
  while (!signal.aborted) {
    let failed = false;
    let runIds: string[] = [];
    try {
      runIds = await handlers.runs();
    } catch (err) {
      failed = true;
      errorPause = Math.min(MAX_ERROR_PAUSE_MS, Math.max(1_000, errorPause * 2));
      handlers.onError(err, null, errorPause);
    }
    for (const runId of runIds) {
      if (signal.aborted) break;
      try {
        const result = await exportRun({ ...options, signal }, runId);
        if (result.spans > 0) handlers.onExport(result);
      } catch (err) {
        // Stopped mid-pass: what was delivered is in the cursor, the rest waits for the next export.
        if (signal.aborted) break;
        failed = true;
        errorPause = Math.min(MAX_ERROR_PAUSE_MS, Math.max(1_000, errorPause * 2));
        handlers.onError(err, runId, errorPause);
        break;
      }
    }
    if (!failed) errorPause = 0;
    await pause(failed ? errorPause : pollMs, signal);
  }
}
