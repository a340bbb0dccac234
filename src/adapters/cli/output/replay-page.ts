// `aop replay --run-id`: the tool arguments its flags make, and how a page is printed. Shared by the
// commander command and the lean route (replay-fast-path.ts), so both print the same bytes.
import type { CliContext } from "../context.js";
import type { TimelinePage } from "../../../domains/replay/index.js";
import { renderTimeline } from "./timeline-table.js";

/** Flag (commander attribute name) → replay.timeline_get argument. */
export const REPLAY_QUERY_FLAGS: readonly (readonly [string, string])[] = [
  ["fromSequence", "from_sequence"],
  ["toSequence", "to_sequence"],
  ["limit", "limit"],
  ["featureId", "feature_id"],
  ["tool", "tool_name"],
  ["result", "result"],
  ["idempotency", "idempotency_status"],
];

export function replayArgs(runId: string, opts: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = { run_id: runId };
  for (const [opt, arg] of REPLAY_QUERY_FLAGS) if (opts[opt] !== undefined) args[arg] = opts[opt];
  return args;
}

/** The run being read is a filter, not the identity the query is recorded under. */
export function readerContext(ctx: CliContext): CliContext {
  // Inherits the rest: a copy would call the context's lazy getters (errStyle builds process.stderr).
  return Object.create(ctx, { globals: { value: { ...ctx.globals, runId: undefined }, enumerable: true } }) as CliContext;
}

export function printReplayPage(ctx: CliContext, runId: string, page: TimelinePage, opts: Record<string, unknown>): void {
  if (ctx.json) {
    ctx.printJson(page);
    return;
  }
  const s = ctx.style;
  if (page.entries.length === 0) ctx.out(`run ${runId}: no entries match`);
  else ctx.out(renderTimeline(page.entries, s));
  const first = page.entries[0]?.sequence;
  const last = page.entries[page.entries.length - 1]?.sequence;
  const errors = page.entries.filter((e) => e.result === "error").length;
  const shown = page.entries.length ? ` (seq ${first}–${last})` : "";
  ctx.out(s.dim(`\n${page.entries.length} of ${page.total_matched} matching entries${shown} · ${errors} error${errors === 1 ? "" : "s"} on this page${page.skipped_lines ? ` · ${page.skipped_lines} unreadable line(s) skipped` : ""}`));
  if (page.next_from_sequence !== null) ctx.out(s.dim(`next page: aop replay --run-id ${runId} --from-sequence ${page.next_from_sequence}${opts.limit ? ` --limit ${String(opts.limit)}` : ""}`));
}
