// aop search QUERY: runs, steps, checkpoints, memory sections, doctor findings and gate results by words
// and filters, newest first, each with the command that opens it (the replay.search tool).
import type { Command } from "commander";
import { addFlags, wholeNumberFlag, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";
import type { CliContext } from "../program/context.js";
import { escapeInline } from "../output/escape.js";
import type { SearchHit, SearchResult } from "../../../domains/search/index.js";

const KINDS = ["run", "step", "checkpoint", "memory", "finding", "gate"] as const;

const SEARCH_FLAGS = [
  { flag: "tool", value: "<name>", description: "only hits of this tool (canonical name; gate results are gates.run, findings doctor.run)" },
  { flag: "feature-id", value: "<id>", description: "only hits about this feature" },
  { flag: "result", value: "<r>", description: "ok | error" },
  { flag: "since", value: "<when>", description: "only hits at or after: an ISO date or time, or 30m, 12h, 2d, 1w back from now" },
  { flag: "kind", value: "<kinds>", description: `only these kinds, comma-separated: ${KINDS.join(", ")}` },
  { flag: "origin", value: "<origin>", description: "search the pulled records of this origin (label, display name or 8+ hex of its workspace id)" },
  { flag: "all", description: "search every workspace under the root (--root), up to three levels down" },
  { flag: "limit", value: "<n>", description: "hits per page, 1-1000 (default 20)", parse: wholeNumberFlag("--limit", 1, 1000) },
  { flag: "cursor", value: "<cursor>", description: "the next page: the cursor the previous page printed" },
  { flag: "reindex", description: "drop the search index and rebuild it while searching" },
  { flag: "scan", description: "read every timeline line and leave the index alone (same hits, slower)" },
] as const satisfies readonly FlagSpec[];

type SearchOptions = FlagValues<typeof SEARCH_FLAGS>;

function searchArgs(words: string[], opts: SearchOptions): Record<string, unknown> {
  const args: Record<string, unknown> = { query: words.join(" ") };
  if (opts.tool !== undefined) args.tool_name = opts.tool;
  if (opts.featureId !== undefined) args.feature_id = opts.featureId;
  if (opts.result !== undefined) {
    if (opts.result !== "ok" && opts.result !== "error") throw usageError(`--result must be ok or error (got '${opts.result}')`);
    args.result = opts.result;
  }
  if (opts.since !== undefined) args.since = opts.since;
  if (opts.kind !== undefined) {
    const kinds = [...new Set(opts.kind.split(",").map((k) => k.trim()).filter((k) => k !== ""))];
    const bad = kinds.filter((k) => !(KINDS as readonly string[]).includes(k));
    if (kinds.length === 0 || bad.length > 0) throw usageError(`--kind takes ${KINDS.join(", ")} (comma-separated); got '${opts.kind}'`);
    args.kinds = kinds;
  }
  if (opts.origin !== undefined) args.origin = opts.origin;
  if (opts.all) args.all = true;
  if (opts.limit !== undefined) args.limit = opts.limit;
  if (opts.cursor !== undefined) args.cursor = opts.cursor;
  if (opts.reindex) args.reindex = true;
  if (opts.scan) args.use_index = false;
  return args;
}

export function register(program: Command, summary: string): void {
  addFlags(program.command("search").description(summary).argument("[words...]", "words to find (case-insensitive; every word must match the start of a word)"), SEARCH_FLAGS)
    .addHelpText(
      "after",
      "\nSearches only what aop keeps: tool names, ids, error codes and messages, checkpoint summaries, actions and\ndecisions, memory sections, doctor findings, gate results and step names — never raw tool inputs (hashed).\n" +
        examples("aop search login", "aop search --result error --since 2d", "aop search not_found --tool feature.get --json", "aop search deploy --kind checkpoint,memory", "aop search --origin alice@laptop login", "aop --root ~/projects search --all timeout"),
    )
    .action(
      runCommand(async (ctx, opts: SearchOptions, words: string[]) => {
        const { withClient } = await import("../sessions/tool-session.js");
        const data: SearchResult = await withClient(ctx, (call) => call("replay.search", searchArgs(words ?? [], opts)));
        if (ctx.json) return ctx.printJson(data);
        printHits(ctx, data);
      }),
    );
}

function printHits(ctx: CliContext, data: SearchResult): void {
  const s = ctx.style;
  if (data.hits.length === 0) {
    ctx.out(data.total_matched === 0 ? "no hits" : "no more hits");
    return;
  }
  for (const hit of data.hits) {
    const result = hit.result === "error" ? s.red("error") : hit.result === "ok" ? s.green("ok") : "";
    ctx.out([s.dim(hit.ts ?? "(no time)".padEnd(24)), s.cyan(hit.kind.padEnd(10)), escapeInline(titleOf(hit)), result].filter(Boolean).join("  "));
    if (hit.snippet !== "" && !hit.title.includes(hit.snippet)) ctx.out(`    ${escapeInline(hit.snippet)}`);
    ctx.out(s.dim(`    → ${escapeInline(hit.open)}`));
  }
  const more = data.next_cursor === null ? "" : ` — next page: --cursor ${data.next_cursor}`;
  ctx.out(s.dim(`${data.hits.length} of ${data.total_matched} hits${more}`));
}

/** The hit's title; a pulled run reads `<origin>/<run_id>`, another workspace's hit is prefixed with its folder. */
function titleOf(hit: SearchHit): string {
  const run = hit.run_id === undefined ? undefined : hit.origin !== undefined ? `${hit.origin}/${hit.run_id}` : hit.run_id;
  const title = hit.kind === "run" && run !== undefined ? hit.title.replace(hit.run_id!, run) : hit.kind === "step" && run !== undefined ? `${hit.title}  ${run}` : hit.title;
  if (hit.origin !== undefined && run === undefined) return `${hit.origin}: ${title}`;
  return hit.workspace !== undefined && hit.origin === undefined ? `${hit.workspace}: ${title}` : title;
}
