// Which entries a timeline query selects, and keeping only the first page of them in order. Pure.
import type { TimelineEntry, TimelineFilter } from "../../catalog/timeline-entry.js";

export type { TimelineFilter };

export function hasContentFilter(f: TimelineFilter): boolean {
  return f.feature_id !== undefined || f.tool_name !== undefined || f.result !== undefined || f.idempotency_status !== undefined;
}

export function matches(entry: TimelineEntry, f: TimelineFilter): boolean {
  if (f.from_sequence !== undefined && entry.sequence < f.from_sequence) return false;
  if (f.to_sequence !== undefined && entry.sequence > f.to_sequence) return false;
  if (f.feature_id !== undefined && entry.feature_id !== f.feature_id) return false;
  if (f.tool_name !== undefined && entry.tool_name !== f.tool_name) return false;
  if (f.result !== undefined && entry.result !== f.result) return false;
  if (f.idempotency_status !== undefined && entry.idempotency_status !== f.idempotency_status) return false;
  return true;
}

/**
 * The `capacity` lowest-sequence entries seen so far, ascending. Lines normally arrive in sequence
 * order (an append is O(1)); an out-of-order line (an edited file) is inserted in place.
 */
export class FirstPage {
  readonly entries: TimelineEntry[] = [];
  constructor(private readonly capacity: number) {}

  offer(entry: TimelineEntry): void {
    const list = this.entries;
    const last = list[list.length - 1];
    if (list.length >= this.capacity && last && entry.sequence >= last.sequence) return;
    if (!last || entry.sequence >= last.sequence) list.push(entry);
    else {
      let i = list.length - 1;
      while (i > 0 && list[i - 1]!.sequence > entry.sequence) i--;
      list.splice(i, 0, entry);
    }
    if (list.length > this.capacity) list.pop();
  }
}
