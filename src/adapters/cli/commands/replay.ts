// aop replay: a run's timeline as a table (--run-id), the runs there are (--list), or a live tail (--follow).
import type { Command } from "commander";
import { wholeNumberFlag } from "../flags.js";
import { examples, runCommand, usageError } from "../run-command.js";
import type { CliContext } from "../context.js";

async function recentRunsHint(ctx: CliContext): Promise<string> {
  const { listRuns } = await import("../../../domains/replay/index.js");
  const runs = (await listRuns(ctx.layout)).slice(0, 5);
  if (runs.length === 0) return "no runs have a timeline yet in this workspace";
  return `recent runs: ${runs.map((r) => r.run_id).join(", ")} (all: aop replay --list)`;
}

export function register(program: Command, summary: string): void {
  program
    .command("replay")
    .description(summary)
    .option("--list", "list runs with a timeline: entries, first/last time, errors")
    .option("--follow", "print new entries of a live run as they are written (Ctrl-C to stop)")
    .option("--from-sequence <n>", "first sequence", wholeNumberFlag("--from-sequence", 0))
    .option("--to-sequence <n>", "last sequence", wholeNumberFlag("--to-sequence", 0))
    .option("--limit <n>", "page size, 1-10000 (default 100)", wholeNumberFlag("--limit", 0))
    .option("--feature-id <id>", "only entries for this feature")
    .option("--tool <name>", "only this tool (canonical name, e.g. feature.init)")
    .option("--result <r>", "ok | error")
    .option("--idempotency <status>", "new | replay | mismatch | none")
    .addHelpText(
      "after",
      "\n--run-id (a global flag) selects the run to read; the query itself is recorded in the current run.\n" +
        examples("aop replay --list", "aop replay --run-id run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", "aop replay --run-id adhoc-2026-11-30 --result error --json", "aop replay --run-id run:abc --from-sequence 100 --limit 50", "aop replay --run-id run:abc --follow"),
    )
    .action(
      runCommand(async (ctx, opts) => {
        if (opts.list) return listCommand(ctx);
        const runId = ctx.globals.runId;
        if (!runId) throw usageError("--run-id is required (or --list)", await recentRunsHint(ctx));
        if (opts.follow) return followCommand(ctx, runId);
        return showCommand(ctx, runId, opts);
      }),
    );
}

async function listCommand(ctx: CliContext): Promise<number> {
  const { listRuns } = await import("../../../domains/replay/index.js");
  const runs = await listRuns(ctx.layout);
  if (ctx.json) {
    ctx.printJson({ runs });
    return 0;
  }
  if (runs.length === 0) {
    ctx.out("no runs have a timeline yet — every tool call is recorded once there is one");
    return 0;
  }
  const { renderTable } = await import("../output/table.js");
  const s = ctx.style;
  // A run whose timeline was not read has no counts: "–", and its problem in NOTES.
  const unread = (r: (typeof runs)[number], cell: string) => (r.problem === null ? cell : "–");
  const rows = runs.map((r) => [
    r.run_id,
    unread(r, String(r.entries)),
    unread(r, r.errors > 0 ? s.red(String(r.errors)) : "0"),
    r.started_at ?? "",
    r.last_entry_at ?? "",
    [r.problem !== null ? s.red(`timeline file ${r.problem}`) : "", r.dropped_entries ? s.yellow(`${r.dropped_entries} dropped`) : "", r.skipped_lines ? s.yellow(`${r.skipped_lines} unreadable`) : ""].filter(Boolean).join(", "),
  ]);
  ctx.out(renderTable([{ header: "RUN" }, { header: "ENTRIES", align: "right" }, { header: "ERRORS", align: "right" }, { header: "FIRST" }, { header: "LAST" }, { header: "NOTES" }], rows));
  return 0;
}

async function showCommand(ctx: CliContext, runId: string, opts: Record<string, unknown>): Promise<number> {
  const { withClient } = await import("../tool-session.js");
  const { printReplayPage, readerContext, replayArgs } = await import("../output/replay-page.js");
  const page = await withClient(readerContext(ctx), (call) => call("replay.timeline_get", replayArgs(runId, opts)));
  printReplayPage(ctx, runId, page, opts);
  return 0;
}

async function followCommand(ctx: CliContext, runId: string): Promise<number> {
  const { followTimeline } = await import("../../../domains/replay/index.js");
  const { timelineRow, TIMELINE_COLUMNS } = await import("../output/timeline-table.js");
  const widths = [7, 12, 8, 1, 8, 24, 16, 10];
  const line = (cells: string[]) => cells.map((c, i) => (TIMELINE_COLUMNS[i]!.align === "right" ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd();
  if (!ctx.json) {
    ctx.out(line(TIMELINE_COLUMNS.map((c) => c.header)));
    ctx.err(ctx.errStyle.dim(`following ${runId} — Ctrl-C to stop`));
  }
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());
  await followTimeline(ctx.layout, runId, stop.signal, (entry) => ctx.out(ctx.json ? JSON.stringify(entry) : line(timelineRow(entry, ctx.style))));
  return 0;
}
