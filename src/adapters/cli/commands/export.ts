// aop export otlp: runs as OpenTelemetry GenAI traces to an OTLP/HTTP endpoint or an OTLP file,
// incrementally (a cursor per run and target), once or --follow (docs/otel.md).
import type { Command } from "commander";
import { wholeNumberFlag } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";
import { stdoutDrained, writeStdout } from "../../stdout.js";
import type { CliContext } from "../program/context.js";
import type { Delivery, ExportOptions, RunExport, RunSelection, SkippedRun, SpanRecord } from "../../../domains/export/index.js";

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * `--run-id` is also the global flag (one value, the run calls are recorded in), which commander parses
 * wherever it appears; here it may repeat, so every occurrence is read from the command line itself.
 */
function runIdsFromArgv(command: Command): string[] {
  let root = command;
  while (root.parent) root = root.parent;
  const args = (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
  const ids: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") break;
    if (arg === "--run-id" && i + 1 < args.length) ids.push(args[++i]!);
    else if (arg.startsWith("--run-id=")) ids.push(arg.slice("--run-id=".length));
  }
  return ids;
}

export function register(program: Command, summary: string): void {
  const exportCommand = program
    .command("export")
    .description(summary)
    .addHelpText("after", examples("aop export otlp --run-id run:abc --endpoint http://localhost:4318", "aop export otlp --all --out traces.jsonl"));

  const otlp = exportCommand
    .command("otlp")
    .description("send runs as OpenTelemetry GenAI traces over OTLP/HTTP, or write the OTLP file format; only what the target has not received yet")
    .option("--all", "every run with a timeline (instead of --run-id ID, which may repeat)")
    .option("--since <iso>", "with --all: only runs with entries at or after this UTC time")
    .option("--endpoint <url>", "OTLP/HTTP traces URL (default: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, then the policy)")
    .option("--protocol <p>", "http/protobuf | http/json (default: OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL, the policy, then http/protobuf)")
    .option("--header <name=value>", "request header, may repeat (added to OTEL_EXPORTER_OTLP_[TRACES_]HEADERS); prefer the env variable for secrets", collect)
    .option("--out <file>", "append the OTLP file format (one TracesData JSON per line) instead of sending")
    .option("--follow", "keep exporting new entries as they are written (Ctrl-C to stop)")
    .option("--dry-run", "show what would be sent; send nothing, move no cursor (--json prints the OTLP JSON)")
    .option("--origin <name>", "export a pulled workspace's runs (aop sync pull) under its own trace ids; --run-id names its runs as it lists them")
    .option("--batch-size <n>", "entries per request (default 1000)", wholeNumberFlag("--batch-size", 1, 100_000))
    .addHelpText(
      "after",
      "\n--run-id ID (the global flag; here it may repeat) selects the runs to export.\nEach (run, target) pair has a cursor under .aop/runtime/export/: a second export sends only new entries,\nand a failed one moves nothing. Header values are never printed or stored.\n" +
        examples(
          "aop export otlp --run-id claude-7f3c2a --endpoint http://localhost:4318",
          "OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318 aop export otlp --all --since 2026-05-01T00:00:00Z",
          "aop export otlp --run-id run:abc --protocol http/json --header x-api-key=$KEY --dry-run",
          "aop export otlp --all --out traces.jsonl",
          "aop export otlp --all --follow",
          "aop export otlp --origin alice@laptop --all --out alice.jsonl",
        ),
    );
  otlp.action((...received: unknown[]) => {
    const runIds = runIdsFromArgv(received[received.length - 1] as Command);
    return runCommand((ctx, opts) => exportOtlp(ctx, opts, runIds))(...received);
  });
}

function selection(opts: Record<string, unknown>, runIds: string[], parseSince: (v: string) => string): RunSelection {
  const all = opts.all === true;
  if (all && runIds.length > 0) throw usageError("give either --run-id ID (any number of times) or --all, not both");
  if (!all && runIds.length === 0) throw usageError("which runs? give --run-id ID (any number of times) or --all", "list runs with `aop replay --list`");
  if (opts.since !== undefined && !all) throw usageError("--since goes with --all");
  return all ? { all: true, since: opts.since === undefined ? null : parseSince(String(opts.since)) } : { runIds };
}

async function deliveryFor(ctx: CliContext, opts: Record<string, unknown>, userAgent: string, onRetry: (reason: string, waitMs: number) => void): Promise<Delivery> {
  const domain = await import("../../../domains/export/index.js");
  if (opts.out !== undefined) {
    if (opts.endpoint !== undefined || opts.header !== undefined) throw usageError("--out writes a file: it takes no --endpoint or --header");
    if (opts.protocol !== undefined && opts.protocol !== "http/json") throw usageError("the OTLP file format is JSON: --out takes no --protocol other than http/json");
    return domain.fileDelivery(String(opts.out));
  }
  const [{ configInvalid }, { loadPolicyTolerant }] = await Promise.all([import("../../../config/config-invalid.js"), import("../../../config/policy-loader.js")]);
  const { policy, problems } = await loadPolicyTolerant(ctx.layout);
  // Other sections' problems are the doctor's business; a broken export section would silently send elsewhere.
  const own = problems.filter((p) => p.path === "" || p.path.startsWith("observability.export"));
  if (own.length > 0) throw configInvalid(own);
  const target = domain.resolveHttpTarget(
    { endpoint: opts.endpoint as string | undefined, protocol: opts.protocol as string | undefined, headers: opts.header as string[] | undefined },
    process.env,
    policy.observability.export.otlp,
  );
  return domain.httpDelivery(target, { userAgent, onRetry });
}

async function exportOtlp(ctx: CliContext, opts: Record<string, unknown>, runIds: string[]): Promise<number> {
  const domain = await import("../../../domains/export/index.js");
  const { readPackageVersion } = await import("../program/version.js");
  const { createProgress } = await import("../output/progress.js");
  const format = await import("../output/export-format.js");
  const chosen = selection(opts, runIds, domain.parseSince);
  const dryRun = opts.dryRun === true;
  if (dryRun && opts.follow === true) throw usageError("--dry-run shows one export; it cannot --follow");
  // A pulled workspace's records, read in place; its cursors stay on this machine (docs/handoff.md).
  const { originFilter } = await import("../sessions/pulled-records.js");
  const origin = await originFilter(ctx, opts.origin as string | undefined);
  if (origin && opts.follow === true) throw usageError("--follow exports a live local run; a pulled workspace changes only with the next aop sync pull");
  const layout = origin ? origin.layout : ctx.layout;
  const version = readPackageVersion();
  const progress = createProgress(undefined, { off: ctx.json });
  const delivery = await deliveryFor(ctx, opts, `aop/${version} (OTLP export)`, (reason, waitMs) => {
    progress.done();
    ctx.err(ctx.errStyle.yellow(`the endpoint ${reason}; retrying in ${(waitMs / 1000).toFixed(1)} s`));
  });
  // A dry run shows each request as it is built, so memory holds one batch whatever the run's size.
  const requests = dryRun && ctx.json ? new RequestsJson(new domain.OtlpEncoder(version), delivery, (text) => writeStdout(text)) : null;
  const showBatch = async (b: { spans: readonly SpanRecord[] }) => {
    if (requests) requests.add(b.spans);
    else ctx.out(format.renderSpanTree(b.spans, ctx.style));
    await stdoutDrained();
  };
  const options: ExportOptions = {
    layout,
    ...(origin ? { workspaceId: origin.workspace_id } : {}),
    clock: ctx.clock,
    delivery,
    serviceVersion: version,
    ...(opts.batchSize === undefined ? {} : { batchEntries: opts.batchSize as number }),
    dryRun,
    ...(dryRun ? { onBatch: showBatch } : {}),
    onProgress: (runId, spans) => progress.update(`exporting ${runId}: ${spans} spans sent`),
  };
  const header = `${dryRun ? "dry run: " : ""}→ ${delivery.display} (${opts.out !== undefined ? "OTLP file, JSON lines" : delivery.protocol})`;
  if (opts.follow === true) return followCommand(ctx, options, chosen, header);

  const { runIds: ids, skipped } = await domain.selectRuns(layout, chosen);
  const mode = dryRun ? "dry-run" : opts.out !== undefined ? "file" : "send";
  if (!ctx.json) ctx.out(ctx.style.dim(header));
  const skip = (run: SkippedRun) => (ctx.json ? undefined : ctx.out(format.renderSkippedLine(run, ctx.style)));
  skipped.forEach(skip);
  const results: RunExport[] = [];
  for (const runId of ids) {
    let result: RunExport;
    try {
      result = await domain.exportRun(options, runId);
    } catch (err) {
      // A timeline that cannot be read is skipped with a note; the other runs are still exported.
      const unreadable = domain.unreadableRun(layout, runId, err);
      if (!unreadable) throw err;
      progress.done();
      skipped.push(unreadable);
      skip(unreadable);
      continue;
    }
    progress.done();
    results.push(result);
    if (!ctx.json) ctx.out(format.renderRunLine(result, ctx.style, mode));
  }
  if (ctx.json) {
    const summary = { runs: results, skipped, spans: results.reduce((n, r) => n + r.spans, 0) };
    if (requests) requests.end(summary);
    else ctx.printJson({ target: delivery.display, protocol: delivery.protocol, dry_run: dryRun, ...summary });
  } else if (ids.length === 0 && skipped.length === 0) ctx.out(`no runs to export${"since" in chosen && chosen.since ? ` with entries since ${chosen.since}` : ""} — every tool call is recorded in a run's timeline once there is one`);
  else ctx.out(format.renderSummary(results, ctx.style, dryRun, skipped.length));
  // A run named with --run-id that could not be exported is a failure; --all reports what it skipped and goes on.
  return "runIds" in chosen && skipped.length > 0 ? 1 : 0;
}

async function followCommand(ctx: CliContext, options: ExportOptions, chosen: RunSelection, header: string): Promise<number> {
  const domain = await import("../../../domains/export/index.js");
  const format = await import("../output/export-format.js");
  const { envelopeFromError } = await import("../../../core/errors.js");
  // Named runs must exist before following starts; --all picks up new runs as they appear.
  if ("runIds" in chosen) await domain.selectRuns(ctx.layout, chosen);
  // Each unreadable run is noted once, not at every pass.
  const noted = new Set<string>();
  const runs = async (): Promise<string[]> => {
    const selected = await domain.selectRuns(ctx.layout, chosen);
    for (const run of selected.skipped.filter((r) => !noted.has(r.run_id))) {
      noted.add(run.run_id);
      if (ctx.json) ctx.out(JSON.stringify({ skipped: run }));
      else ctx.err(format.renderSkippedLine(run, ctx.errStyle));
    }
    return selected.runIds;
  };
  if (!ctx.json) {
    ctx.out(ctx.style.dim(header));
    ctx.err(ctx.errStyle.dim("following — new entries are exported as they are written; Ctrl-C to stop"));
  }
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());
  await domain.followExports(
    options,
    {
      runs,
      onExport: (result) => ctx.out(ctx.json ? JSON.stringify(result) : format.renderRunLine(result, ctx.style, options.delivery.identity.startsWith("file:") ? "file" : "send")),
      onError: (err, runId, pauseMs) => {
        const envelope = envelopeFromError(err);
        const message = envelope.ok ? String(err) : `${envelope.error.code}: ${envelope.error.message}`;
        ctx.err(ctx.errStyle.red(`error ${runId ? `(run ${runId}) ` : ""}${message}`) + ctx.errStyle.dim(` — nothing lost; trying again in ${(pauseMs / 1000).toFixed(0)} s`));
      },
    },
    stop.signal,
  );
  return 0;
}

/**
 * The JSON of a dry run, written as it is built: the document's head, each request (OTLP/JSON) as its
 * batch is encoded, then the summary. The same document `printJson` would print with the requests first.
 */
class RequestsJson {
  private count = 0;

  constructor(
    private readonly encoder: { encode(spans: readonly SpanRecord[], protocol: "http/json"): Uint8Array },
    delivery: Delivery,
    private readonly write: (text: string) => void,
  ) {
    const head = JSON.stringify({ target: delivery.display, protocol: delivery.protocol, dry_run: true }, null, 2);
    this.write(`${head.slice(0, -2)},\n  "requests": [`);
  }

  add(spans: readonly SpanRecord[]): void {
    const request = JSON.parse(new TextDecoder().decode(this.encoder.encode(spans, "http/json"))) as unknown;
    this.write(`${this.count++ === 0 ? "" : ","}\n    ${JSON.stringify(request, null, 2).replace(/\n/g, "\n    ")}`);
  }

  end(summary: Record<string, unknown>): void {
    const tail = JSON.stringify(summary, null, 2);
    this.write(`${this.count === 0 ? "" : "\n  "}],\n${tail.slice(2)}\n`);
  }
}
