// The runs a report lists and the ones whose entries it embeds: every run (or those named), newest
// first, embedded while they fit the budgets of docs/report.md; the rest are listed with a note.
import { AopError } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { listRuns, type RunSummary } from "../replay/index.js";
import { encodeTimeline, type EncodedTimeline, type TimelineRecord } from "./timeline-codec.js";
import { readRunRecords } from "./timeline-read.js";
import type { RunView } from "./report-types.js";
import { formatCount } from "../../core/format-count.js";

export interface RunBudget {
  /** Newest entries embedded of one run. */
  maxEntriesPerRun: number;
  /** Bytes read from the end of one timeline file. */
  maxBytesPerRun: number;
  /** Entries embedded across runs chosen by default (runs named with --run-id are always embedded). */
  maxEmbeddedEntries: number;
}

export const DEFAULT_BUDGET: RunBudget = { maxEntriesPerRun: 100_000, maxBytesPerRun: 64 * 1024 * 1024, maxEmbeddedEntries: 250_000 };

export interface RunSelection {
  runIds: string[] | null;
  sinceMs: number | null;
}

export interface GatheredRuns {
  runs: RunView[];
  timelines: EncodedTimeline[];
  /** The embedded records by run (for ledger look-ups and diffs). */
  records: Map<string, TimelineRecord[]>;
  /** Where a live tail of each embedded run continues. */
  cursors: Map<string, number>;
  notes: string[];
}

/** A run's row before its entries are read. */
export function runView({ problem, ...counts }: RunSummary): RunView {
  return { ...counts, embedded: false, embedded_entries: 0, omitted_entries: 0, note: problem === null ? null : `timeline file ${problem}`, cursor: null };
}

/** The summaries in scope: the named runs (each must exist), else every run active since `sinceMs`. */
async function selectRuns(layout: WorkspaceLayout, selection: RunSelection): Promise<RunSummary[]> {
  const all = await listRuns(layout);
  if (selection.runIds === null) {
    if (selection.sinceMs === null) return all;
    return all.filter((r) => r.last_entry_at !== null && Date.parse(r.last_entry_at) >= selection.sinceMs!);
  }
  const byId = new Map(all.map((r) => [r.run_id, r]));
  const picked: RunSummary[] = [];
  for (const raw of selection.runIds) {
    const id = validateId("run_id", raw);
    const found = byId.get(id);
    if (!found) {
      const known = all.slice(0, 5).map((r) => r.run_id);
      throw new AopError("replay_run_not_found", `no timeline for run '${id}'`, {
        details: { run_id: id },
        hint: known.length ? `recent runs: ${known.join(", ")} (all: aop replay --list)` : "no run has a timeline yet in this workspace",
      });
    }
    if (!picked.includes(found)) picked.push(found);
  }
  return picked;
}

export async function gatherRuns(layout: WorkspaceLayout, selection: RunSelection, budget: RunBudget = DEFAULT_BUDGET): Promise<GatheredRuns> {
  const summaries = await selectRuns(layout, selection);
  const named = selection.runIds !== null;
  const out: GatheredRuns = { runs: [], timelines: [], records: new Map(), cursors: new Map(), notes: [] };
  let embedded = 0;
  let overBudget = 0;
  for (const summary of summaries) {
    const run = runView(summary);
    out.runs.push(run);
    if (summary.problem !== null) {
      out.notes.push(`${layout.relative(layout.timelineFile(run.run_id))} ${summary.problem}`);
      continue;
    }
    const expected = Math.min(summary.entries, budget.maxEntriesPerRun);
    if (!named && embedded > 0 && embedded + expected > budget.maxEmbeddedEntries) {
      run.note = `not embedded: the report holds at most ${formatCount(budget.maxEmbeddedEntries)} entries — aop report --run-id ${run.run_id}`;
      overBudget += 1;
      continue;
    }
    const read = await readRunRecords(layout, run.run_id, { maxEntries: budget.maxEntriesPerRun, maxBytes: budget.maxBytesPerRun, sinceMs: selection.sinceMs });
    if (read.problem) {
      run.note = `timeline file ${read.problem}`;
      out.notes.push(`${layout.relative(layout.timelineFile(run.run_id))} ${read.problem}`);
      continue;
    }
    run.embedded = true;
    run.embedded_entries = read.records.length;
    run.omitted_entries = Math.max(0, summary.entries - read.records.length);
    if (run.omitted_entries > 0) {
      const why = selection.sinceMs !== null ? "before --since or " : "";
      run.note = `the newest ${formatCount(read.records.length)} entries are embedded; ${formatCount(run.omitted_entries)} older ones are not (${why}over the per-run bound)`;
    }
    embedded += read.records.length;
    out.timelines.push(encodeTimeline(run.run_id, read.records));
    out.records.set(run.run_id, read.records);
    out.cursors.set(run.run_id, read.cursor);
  }
  if (overBudget > 0) out.notes.push(`${overBudget} older run${overBudget === 1 ? " is" : "s are"} listed without entries (budget of ${formatCount(budget.maxEmbeddedEntries)} entries); name runs with --run-id to embed them`);
  return out;
}
