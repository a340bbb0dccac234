// Whether a checkpoint has gone stale, judged by its status (policy `checkpoints.stale_days`). Pure.
// Validation never looks at this, so a file's validity does not change with the calendar.
import type { Checkpoint } from "./checkpoint-types.js";

export interface StaleDays {
  in_progress: number;
  blocked: number;
  complete: number;
}

export interface Staleness {
  stale: boolean;
  /** now − updated_at. */
  age_ms: number;
  /** The threshold for this status; null for statuses that never go stale (failed). */
  threshold_days: number | null;
}

const DAY_MS = 86_400_000;

function thresholdDays(status: Checkpoint["status"], staleDays: StaleDays): number | null {
  if (status === "in_progress" || status === "blocked" || status === "complete") return staleDays[status];
  return null;
}

export function staleness(checkpoint: Pick<Checkpoint, "status" | "updated_at">, now: number, staleDays: StaleDays): Staleness {
  const age = now - Date.parse(checkpoint.updated_at);
  const threshold = thresholdDays(checkpoint.status, staleDays);
  return { stale: threshold !== null && age > threshold * DAY_MS, age_ms: age, threshold_days: threshold };
}
