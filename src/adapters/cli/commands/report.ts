// aop report: the workspace's timeline and state as one self-contained HTML file (default), served live
// on 127.0.0.1 (--serve), or two runs compared in the terminal (--diff). Reads only; see docs/report.md.
import type { Command } from "commander";
import { isIsoUtc } from "../../../core/instant.js";
import type { CliContext } from "../program/context.js";
import { wholeNumberFlag } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";
import type { ReportOptions, ReportPorts } from "../../../domains/report/index.js";
import type { WorkspaceLayout } from "../../../store/layout.js";
import { formatCount } from "../../../core/format-count.js";

export const DEFAULT_PORT = 7707;


export function register(program: Command, summary: string): void {
  // --run-id is a global flag (one value); here it may repeat, so every occurrence is collected.
  const runIds: string[] = [];
  program.on("option:run-id", (value: string) => runIds.push(value));
  program
    .command("report")
    .description(summary)
    .option("--out <file>", "the HTML file to write (default: .aop/report.html in the workspace)")
    .option("--since <iso>", "only runs active since this instant, and only their entries from then on")
    .option("--open", "open the file (or the served page) with the platform's opener")
    .option("--serve", "serve the page on 127.0.0.1 with live entries instead of writing a file (Ctrl-C stops)")
    .option("--port <n>", `port for --serve (default ${DEFAULT_PORT}; 0 picks a free one)`, wholeNumberFlag("--port", 0, 65535, "0 picks any free port"))
    .option("--origin <name>", "the report of a pulled workspace (aop sync pull): its label, display name or 8+ hex of its id")
    .option("--diff <runs...>", "compare two runs in the terminal: --diff RUN_A RUN_B (with --out, also write the page at its diff view)")
    .addHelpText(
      "after",
      "\n--run-id ID (the global flag) may be repeated to narrow the report to those runs; by default it holds\n" +
        "every run (entries of the newest ones, within a budget), features with their evidence chains,\n" +
        "checkpoints and the doctor's last report. The file makes no network requests. Nothing is written\n" +
        "but the report file.\n" +
        examples("aop report", "aop report --out /tmp/today.html --since 2026-03-01T00:00:00Z --open", "aop report --run-id run:demo --run-id claude-5f0c2a8e", "aop report --serve --port 0", "aop report --diff run:yesterday run:today", "aop report --origin alice@laptop --out /tmp/alice.html"),
    )
    .action(runCommand((ctx, opts) => reportCommand(ctx, opts, runIds)));
}

async function ports(layout: WorkspaceLayout): Promise<ReportPorts> {
  const { ledgerReader } = await import("../../../app/report-ports.js");
  const { readPackageVersion } = await import("../program/version.js");
  return { readLedger: ledgerReader(layout), version: readPackageVersion() };
}

/**
 * Whose records the report shows: this workspace's (its notes name every pulled workspace), or with
 * `--origin` a pulled one's, read in place (docs/handoff.md); the page itself is written in this workspace.
 */
async function reportSource(ctx: CliContext, wanted: string | undefined): Promise<{ layout: WorkspaceLayout; notes: string[] }> {
  const { pulledOrigins, originFilter } = await import("../sessions/pulled-records.js");
  const origin = await originFilter(ctx, wanted);
  if (origin) return { layout: origin.layout, notes: [`the records of pulled workspace ${origin.label} (${origin.display_name}), pulled ${origin.pulled_at} from ${origin.remote} at commit ${origin.commit.slice(0, 12)}`] };
  const { origins, warnings } = await pulledOrigins(ctx);
  const notes = origins.length === 0 ? [] : [`pulled workspaces (their reports: aop report --origin NAME): ${origins.map((o) => `${o.label} (${o.display_name}, pulled ${o.pulled_at})`).join(", ")}`];
  return { layout: ctx.layout, notes: [...notes, ...warnings.map((w) => `pulled folder ${w}`)] };
}

async function reportCommand(ctx: CliContext, opts: Record<string, unknown>, runIds: string[]): Promise<number> {
  const since = opts.since as string | undefined;
  if (since !== undefined && !isIsoUtc(since) && Number.isNaN(Date.parse(since))) throw usageError(`--since must be an ISO 8601 time (got '${since}')`, "e.g. --since 2026-03-01T00:00:00Z");
  const diff = opts.diff as string[] | undefined;
  if (diff !== undefined && diff.length !== 2) throw usageError(`--diff takes two run ids (got ${diff.length})`, "e.g. aop report --diff run:yesterday run:today");
  if (diff && runIds.length > 0) throw usageError("--diff names its runs itself: leave out --run-id");
  if (opts.serve && (opts.out !== undefined || diff)) throw usageError("--serve shows the page live: it takes neither --out nor --diff");
  if (opts.port !== undefined && !opts.serve) throw usageError("--port goes with --serve");
  const options: Omit<ReportOptions, "live"> = { runIds: diff ?? (runIds.length ? runIds : null), since: since ?? null };
  if (opts.serve && opts.origin !== undefined) throw usageError("--serve shows this workspace live; a pulled workspace changes only with the next aop sync pull: write its page with --origin (no --serve)");
  if (opts.serve) return serveCommand(ctx, options, opts);
  const report = await import("../../../domains/report/index.js");
  const source = await reportSource(ctx, opts.origin as string | undefined);
  const built = await report.buildReport(source.layout, ctx.clock, { ...options, live: false }, await ports(source.layout));
  built.data.notes.unshift(...source.notes);
  let written: { path: string; bytes: number } | null = null;
  if (!diff || opts.out !== undefined) {
    const html = report.renderReportHtml(built.data, report.loadPageAssets(), "file");
    written = report.writeReportFile(opts.out === undefined ? report.defaultReportPath(ctx.layout) : String(opts.out), html);
  }
  const { pathToFileURL } = await import("node:url");
  const link = written ? pathToFileURL(written.path).href + (diff ? `#view=diff&a=${encodeURIComponent(diff[0]!)}&b=${encodeURIComponent(diff[1]!)}` : "") : null;
  if (diff) {
    const result = report.diffRuns(built.records.get(diff[0]!) ?? [], built.records.get(diff[1]!) ?? []);
    const { diffJson, renderDiff } = await import("../output/diff-format.js");
    if (ctx.json) ctx.printJson({ ...diffJson(diff, built.records, result), ...(written ? { path: written.path, url: link } : {}) });
    else {
      ctx.out(renderDiff(diff, built.records, result, ctx.style));
      if (written) ctx.out(`${written.path}\n${ctx.style.dim(`page at the diff view: ${link}`)}`);
    }
  } else if (written) {
    const embedded = built.data.runs.filter((r) => r.embedded);
    const entries = embedded.reduce((n, r) => n + r.embedded_entries, 0);
    if (ctx.json) ctx.printJson({ path: written.path, url: link, bytes: written.bytes, runs: built.data.runs.length, embedded_runs: embedded.length, entries, notes: built.data.notes });
    else {
      // The path alone on stdout, so `xdg-open "$(aop report)"` works; the summary goes to stderr.
      ctx.out(written.path);
      const { formatBytes } = await import("../output/diff-format.js");
      const n = (k: number, one: string, many = `${one}s`) => `${formatCount(k)} ${k === 1 ? one : many}`;
      ctx.err(ctx.errStyle.dim(`${formatBytes(written.bytes)} · ${n(built.data.runs.length, "run")} (${embedded.length} with entries, ${n(entries, "entry", "entries")}) · ${n(built.data.features.items.length, "feature")} · ${n(built.data.checkpoints.items.length, "checkpoint")}`));
      for (const note of built.data.notes) ctx.err(ctx.errStyle.yellow(`note: ${note}`));
    }
  }
  if (opts.open && link) await openWith(ctx, link);
  return 0;
}

async function serveCommand(ctx: CliContext, options: Omit<ReportOptions, "live">, opts: Record<string, unknown>): Promise<number> {
  const report = await import("../../../domains/report/index.js");
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());
  // Refuse a folder that is not a workspace before listening (the page would only show the error).
  report.requireWorkspace(ctx.layout);
  await report.serveReport({
    layout: ctx.layout,
    clock: ctx.clock,
    options,
    ports: await ports(ctx.layout),
    assets: report.loadPageAssets(),
    port: (opts.port as number | undefined) ?? DEFAULT_PORT,
    signal: stop.signal,
    onListening: (url) => {
      if (ctx.json) ctx.out(JSON.stringify({ url }));
      else {
        ctx.out(url);
        ctx.err(ctx.errStyle.dim(`serving ${ctx.layout.root} on 127.0.0.1 only, live — Ctrl-C to stop`));
      }
      if (opts.open) void openWith(ctx, url);
    },
  });
  return 0;
}

async function openWith(ctx: CliContext, target: string): Promise<void> {
  const { openExternally } = await import("../output/open-externally.js");
  const opener = openExternally(target);
  if (opener === null) ctx.err("no opener found (xdg-open, open or start): open it yourself");
}
