// The checkpoints a next session has to pick up (in progress, blocked or failed), most urgent first by
// the reference CLI's ranking (docs/checkpoints.md). Pure. Shared by the session orientation and the
// handoff note, so both name the same checkpoint first.
import type { Checkpoint } from "./checkpoint-types.js";
import { rankCheckpoints } from "./ranking.js";
import { compareText } from "../../core/compare-text.js";

const OPEN_STATUSES: ReadonlySet<string> = new Set(["in_progress", "blocked", "failed"]);

export function isOpenCheckpoint(checkpoint: Checkpoint): boolean {
  return OPEN_STATUSES.has(checkpoint.status);
}

/** The open checkpoints among `all`, most urgent first; equal ones in skill order. */
export function openCheckpointsByUrgency(all: readonly Checkpoint[]): Checkpoint[] {
  const open = all.filter(isOpenCheckpoint);
  const order = new Map(rankCheckpoints(open.map((c) => ({ file: `${c.skill}.checkpoint.json`, document: c as unknown as Record<string, unknown>, valid: true }))).map((p, i) => [p.skill, i]));
  return open.sort((a, b) => (order.get(a.skill) ?? Infinity) - (order.get(b.skill) ?? Infinity) || compareText(a.skill, b.skill));
}
