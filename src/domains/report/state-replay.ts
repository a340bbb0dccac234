// The state after a step of a run, rebuilt on the page from the run's compact track (report-types.ts,
// StateTrackView): the leaves before the first step with every change up to the step applied. Pure.
import type { StateTrackView } from "./report-types.js";
import { compareText } from "../../core/compare-text.js";

export interface StepState {
  /** Every leaf of the state after the step, in path order; an absent leaf is left out. */
  leaves: [string, unknown][];
  /** What the step did and changed; null when it changed nothing. */
  step: { effect: string; changes: [string, unknown, unknown][] } | null;
}

/** Index of the last track step at or before `sequence` (steps are in sequence order), or -1. */
function lastAtOrBefore(track: StateTrackView, sequence: number): number {
  let lo = 0;
  let hi = track.steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (track.steps[mid]![0] <= sequence) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The state after step `sequence`, or null when the track does not reach it (a later live entry, a cut track). */
export function stateAfterStep(track: StateTrackView, sequence: number): StepState | null {
  if (sequence > track.through) return null;
  const leaves = new Map(track.initial);
  const last = lastAtOrBefore(track, sequence);
  for (let i = 0; i <= last; i++) {
    for (const [path, , after] of track.steps[i]![2]) {
      if (after === null) leaves.delete(path);
      else leaves.set(path, after);
    }
  }
  const own = last >= 0 && track.steps[last]![0] === sequence ? track.steps[last]! : null;
  return {
    leaves: [...leaves].sort(([a], [b]) => compareText(a, b)),
    step: own ? { effect: own[1], changes: own[2] } : null,
  };
}
