// The run's sidecar <run_id>.ext.jsonl (DESIGN §21, docs/replay.md): what aop keeps per entry beyond the
// seed's 14 keys — transport, marker labels, subagent ids, a client's call id… — one line `{sequence, …}`
// per sequence that has extras, appended by the writer after the entry's line under the run's lock.
// Readers join it back by sequence. It is advisory: a missing, unreadable or damaged sidecar (or a line
// of it) loses extras, never entries; a line naming a sequence the timeline does not hold is ignored.
import { readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { TimelineEntry } from "./timeline-entry.js";
import { joinExtras } from "./timeline-entry.js";

export type Extras = Record<string, unknown>;

/**
 * The sidecar's extras by sequence, within `range` when given (both ends included). Streams with the
 * JSONL line bound and stops past the range; a later line for the same sequence adds to (and overrides)
 * an earlier one.
 */
export function readExtras(layout: WorkspaceLayout, runId: string, range?: { from: number; to: number }): Map<number, Extras> {
  const out = new Map<number, Extras>();
  let lines;
  try {
    lines = readLinesSync(layout.timelineExt(runId));
  } catch {
    return out; // missing, a special file, a link out of the workspace: no extras
  }
  try {
    for (const line of lines) {
      if (!line.complete || line.overlong || line.text === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        continue;
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
      const sequence = (value as { sequence?: unknown }).sequence;
      if (typeof sequence !== "number" || !Number.isInteger(sequence) || sequence < 0) continue;
      // The writer appends sidecar lines in sequence order (under the run's lock), so the range ends here;
      // a sidecar edited out of order loses extras past this point, never entries.
      if (range && sequence > range.to) break;
      if (range && sequence < range.from) continue;
      const known = out.get(sequence);
      out.set(sequence, known ? { ...known, ...(value as Extras) } : (value as Extras));
    }
  } catch {
    // the sidecar became unreadable mid-way: what was read is kept
  }
  return out;
}

/** Joins the sidecar onto entries read from the run's timeline (in place). */
export function joinSidecar(layout: WorkspaceLayout, runId: string, entries: TimelineEntry[]): TimelineEntry[] {
  if (entries.length === 0) return entries;
  let from = Infinity;
  let to = -1;
  for (const e of entries) {
    if (e.sequence < from) from = e.sequence;
    if (e.sequence > to) to = e.sequence;
  }
  const extras = readExtras(layout, runId, { from, to });
  if (extras.size > 0) for (const e of entries) joinExtras(e, extras.get(e.sequence));
  return entries;
}
