// `aop replay --run-id`: how a page of a run's timeline is printed.
import type { CliContext } from "../program/context.js";
import type { TimelinePage } from "../../../domains/replay/index.js";
import { renderTimeline } from "./timeline-table.js";

/** The page, then a line of counts and the command of the next page (with the page size asked for). */
export function printReplayPage(ctx: CliContext, runId: string, page: TimelinePage, limit: number | undefined): void {
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
  if (page.next_from_sequence !== null) ctx.out(s.dim(`next page: aop replay --run-id ${runId} --from-sequence ${page.next_from_sequence}${limit ? ` --limit ${limit}` : ""}`));
}
