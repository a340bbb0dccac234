// aop replay: a run's timeline as a table (--run-id), the runs there are (--list), or a live tail (--follow).
import type { Command } from "commander";
import { addFlags, optionKey, wholeNumberFlag, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";
import type { CliContext } from "../program/context.js";
import fs from "node:fs";
import type { RunSummary, TimelinePage } from "../../../domains/replay/index.js";
import type { Origin } from "../../../domains/origins/index.js";
import { AopError } from "../../../core/errors.js";
import { compareText } from "../../../core/compare-text.js";

/** A flag that narrows the page: its replay.timeline_get argument. */
interface QueryFlag extends FlagSpec {
  arg: string;
}

const QUERY_FLAGS = [
  { flag: "from-sequence", value: "<n>", description: "first sequence", parse: wholeNumberFlag("--from-sequence", 0), arg: "from_sequence" },
  { flag: "to-sequence", value: "<n>", description: "last sequence", parse: wholeNumberFlag("--to-sequence", 0), arg: "to_sequence" },
  { flag: "limit", value: "<n>", description: "page size, 1-10000 (default 100)", parse: wholeNumberFlag("--limit", 0), arg: "limit" },
  { flag: "feature-id", value: "<id>", description: "only entries for this feature", arg: "feature_id" },
  { flag: "tool", value: "<name>", description: "only this tool (canonical name, e.g. feature.init)", arg: "tool_name" },
  { flag: "result", value: "<r>", description: "ok | error", arg: "result" },
  { flag: "idempotency", value: "<status>", description: "new | replay | mismatch | none", arg: "idempotency_status" },
] as const satisfies readonly QueryFlag[];

const REPLAY_FLAGS = [
  { flag: "list", description: "list runs with a timeline: entries, first/last time, errors" },
  { flag: "follow", description: "print new entries of a live run as they are written (Ctrl-C to stop)" },
  { flag: "origin", value: "<name>", description: "with --list: only the runs of this pulled workspace (its label, display name or 8+ hex of its id), or `local`" },
  ...QUERY_FLAGS,
] as const satisfies readonly FlagSpec[];

type ReplayOptions = FlagValues<typeof REPLAY_FLAGS>;

/** The replay.timeline_get arguments the query flags make. */
export function replayArgs(runId: string, opts: ReplayOptions): Record<string, unknown> {
  const args: Record<string, unknown> = { run_id: runId };
  for (const { flag, arg } of QUERY_FLAGS) {
    const value = (opts as Record<string, unknown>)[optionKey(flag)];
    if (value !== undefined) args[arg] = value;
  }
  return args;
}

async function recentRunsHint(ctx: CliContext): Promise<string> {
  const { listRuns } = await import("../../../domains/replay/index.js");
  const runs = (await listRuns(ctx.layout)).slice(0, 5);
  if (runs.length === 0) return "no runs have a timeline yet in this workspace";
  return `recent runs: ${runs.map((r) => r.run_id).join(", ")} (all: aop replay --list)`;
}

export function register(program: Command, summary: string): void {
  addFlags(program.command("replay").description(summary), REPLAY_FLAGS)
    .addHelpText(
      "after",
      "\n--run-id (a global flag) selects the run to read; the query itself is recorded in the current run.\nA pulled run (aop sync pull) is named <origin>/<run_id>, as --list shows it; reading one records nothing.\n" +
        examples("aop replay --list", "aop replay --run-id run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", "aop replay --run-id adhoc-2026-11-30 --result error --json", "aop replay --run-id run:abc --from-sequence 100 --limit 50", "aop replay --run-id run:abc --follow", "aop replay --list --origin alice@laptop", "aop replay --run-id alice@laptop/run:abc"),
    )
    .action(
      runCommand(async (ctx, opts: ReplayOptions) => {
        if (opts.list) return listCommand(ctx, opts.origin);
        if (opts.origin !== undefined) throw usageError("--origin filters --list; to read a pulled run give --run-id <origin>/<run_id>");
        const ref = ctx.globals.runId;
        if (!ref) throw usageError("--run-id is required (or --list)", await recentRunsHint(ctx));
        const { resolveRunRef } = await import("../sessions/pulled-records.js");
        const { origin, runId } = await resolveRunRef(ctx, ref);
        if (origin !== null) {
          if (opts.follow) throw usageError("--follow reads a live local run; a pulled run changes only with the next aop sync pull");
          return showPulledCommand(ctx, origin, runId, opts);
        }
        if (opts.follow) return followCommand(ctx, runId);
        return showCommand(ctx, runId, opts);
      }),
    );
}

type ListedRun = RunSummary & { origin: string; run: string };

/** Local runs (origin `local`) and every pulled workspace's, as `<origin>/<run_id>`; `--origin` keeps one. */
async function listedRuns(ctx: CliContext, wanted: string | undefined): Promise<{ runs: ListedRun[]; pulled: boolean }> {
  const { listRuns } = await import("../../../domains/replay/index.js");
  const { LOCAL_ORIGIN } = await import("../../../domains/origins/index.js");
  const { originFilter, pulledOrigins } = await import("../sessions/pulled-records.js");
  const only = await originFilter(ctx, wanted);
  const runs: ListedRun[] = [];
  if (only === undefined || only === null) runs.push(...(await listRuns(ctx.layout)).map((r) => ({ ...r, origin: LOCAL_ORIGIN, run: r.run_id })));
  const origins = only === undefined ? (await pulledOrigins(ctx)).origins : only === null ? [] : [only];
  for (const o of origins) runs.push(...(await listRuns(o.layout)).map((r) => ({ ...r, origin: o.label, run: `${o.label}/${r.run_id}` })));
  runs.sort((a, b) => compareText(b.last_entry_at ?? "", a.last_entry_at ?? "") || compareText(a.run, b.run));
  return { runs, pulled: only !== undefined || origins.length > 0 };
}

async function listCommand(ctx: CliContext, wanted: string | undefined): Promise<number> {
  const { runs, pulled } = await listedRuns(ctx, wanted);
  if (ctx.json) {
    ctx.printJson({ runs });
    return 0;
  }
  if (runs.length === 0) {
    ctx.out(wanted === undefined ? "no runs have a timeline yet — every tool call is recorded once there is one" : `no runs have a timeline in origin ${wanted}`);
    return 0;
  }
  const { renderTable } = await import("../output/table.js");
  const s = ctx.style;
  // A run whose timeline was not read has no counts: "–", and its problem in NOTES.
  const unread = (r: (typeof runs)[number], cell: string) => (r.problem === null ? cell : "–");
  // The ORIGIN column appears once something was pulled; a workspace on its own lists as it always did.
  const rows = runs.map((r) => [
    r.run,
    ...(pulled ? [r.origin] : []),
    unread(r, String(r.entries)),
    unread(r, r.errors > 0 ? s.red(String(r.errors)) : "0"),
    r.started_at ?? "",
    r.last_entry_at ?? "",
    [r.problem !== null ? s.red(`timeline file ${r.problem}`) : "", r.dropped_entries ? s.yellow(`${r.dropped_entries} dropped`) : "", r.skipped_lines ? s.yellow(`${r.skipped_lines} unreadable`) : ""].filter(Boolean).join(", "),
  ]);
  const columns = [{ header: "RUN" }, ...(pulled ? [{ header: "ORIGIN" }] : []), { header: "ENTRIES", align: "right" as const }, { header: "ERRORS", align: "right" as const }, { header: "FIRST" }, { header: "LAST" }, { header: "NOTES" }];
  ctx.out(renderTable(columns, rows));
  return 0;
}

/** A page of a pulled run, read straight from its folder (checked as the tool would check it; nothing recorded). */
async function showPulledCommand(ctx: CliContext, origin: Origin, runId: string, opts: ReplayOptions): Promise<number> {
  const { queryTimeline } = await import("../../../domains/replay/index.js");
  const { checkedToolArgs } = await import("../sessions/pulled-records.js");
  const args = await checkedToolArgs("replay.timeline_get", replayArgs(runId, opts));
  if (!fs.existsSync(origin.layout.timelineFile(runId))) {
    throw new AopError("replay_run_not_found", `origin ${origin.label} has no run ${runId}`, { hint: `its runs: aop replay --list --origin ${origin.label}` });
  }
  const { printReplayPage } = await import("../output/replay-page.js");
  const page = await queryTimeline(origin.layout, args as unknown as Parameters<typeof queryTimeline>[1]);
  printReplayPage(ctx, `${origin.label}/${runId}`, page, opts.limit);
  return 0;
}

/** The run being read is a filter, not the identity the query is recorded under. */
function readerContext(ctx: CliContext): CliContext {
  // Inherits the rest: a copy would call the context's lazy getters (errStyle builds process.stderr).
  return Object.create(ctx, { globals: { value: { ...ctx.globals, runId: undefined }, enumerable: true } }) as CliContext;
}

async function showCommand(ctx: CliContext, runId: string, opts: ReplayOptions): Promise<number> {
  const { withClient } = await import("../sessions/tool-session.js");
  const { printReplayPage } = await import("../output/replay-page.js");
  const page: TimelinePage = await withClient(readerContext(ctx), (call) => call("replay.timeline_get", replayArgs(runId, opts)));
  printReplayPage(ctx, runId, page, opts.limit);
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
