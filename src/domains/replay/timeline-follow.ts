// Tails a live timeline: yields the last few entries, then each new complete line as it is appended.
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { WorkspaceLayout } from "../../store/layout.js";
import { validateId } from "../../core/ids.js";
import { readJsonl, type JsonlReadStats } from "../../store/jsonl.js";
import { asEntry, type TimelineEntry } from "./timeline-entry.js";
import { joinSidecar } from "./timeline-ext.js";

const POLL_MS = 200;
const BACKLOG = 20;

export async function followTimeline(layout: WorkspaceLayout, runId: string, signal: AbortSignal, onEntry: (e: TimelineEntry) => void): Promise<void> {
  const file = layout.timelineFile(validateId("run_id", runId));
  let offset = 0;
  let first = true;
  while (!signal.aborted) {
    const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if (size < offset) offset = 0; // replaced or pruned: start over
    if (size > offset) {
      const stats: JsonlReadStats = { lines: 0, skipped: 0, tornTail: false, endOffset: offset };
      const fresh: TimelineEntry[] = [];
      for await (const record of readJsonl(file, { fromOffset: offset }, stats)) {
        const entry = asEntry(record.value);
        if (entry) fresh.push(entry);
      }
      offset = stats.endOffset; // a line still being written is read on the next poll
      joinSidecar(layout, runId, fresh);
      for (const entry of first ? fresh.slice(-BACKLOG) : fresh) onEntry(entry);
      first = false;
    }
    // node:timers/promises drops its abort listener when the timer fires: a long follow adds none per poll.
    await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}
