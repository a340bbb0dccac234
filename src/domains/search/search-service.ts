// replay.search: every kind of record aop keeps, in every workspace asked for, matched by words and
// filters, newest first, one page at a time (docs/replay.md, "Search").
import type { WorkspaceLayout } from "../../store/layout.js";
import { listRuns } from "../replay/index.js";
import { decodeCursor, docMatches, encodeCursor, NewestPage, parseQuery, parseSince, snippet, type HitKind, type PlacedDoc, type SearchFilter } from "./search-match.js";
import { dropIndexes } from "./search-index.js";
import { checkpointDocs, findingDocs, gateDocs, memoryDocs, quoteArg, runDoc } from "./search-sources.js";
import { ledgerBuckets, searchRunSteps, type StepSearchStats } from "./search-steps.js";
import { searchedWorkspaces, type SearchedWorkspace } from "./search-workspaces.js";

export interface SearchArgs {
  query: string;
  tool_name?: string;
  feature_id?: string;
  result?: "ok" | "error";
  since?: string;
  kinds?: HitKind[];
  origin?: string;
  all?: boolean;
  limit?: number;
  cursor?: string;
  reindex?: boolean;
  /** False: read every timeline line, use and write no index (the result is the same: tests compare). */
  use_index?: boolean;
}

export interface SearchHit {
  kind: HitKind;
  ts: string | null;
  title: string;
  snippet: string;
  open: string;
  state?: string;
  run_id?: string;
  sequence?: number;
  feature_id?: string | null;
  tool_name?: string | null;
  result?: "ok" | "error" | null;
  skill?: string;
  /** The workspace's root relative to the searching one's; absent for the searching one itself. */
  workspace?: string;
  /** The pulled workspace's origin label (its runs read `<origin>/<run_id>`). */
  origin?: string;
}

export interface SearchResult {
  words: string[];
  since: string | null;
  hits: SearchHit[];
  total_matched: number;
  next_cursor: string | null;
  workspaces: number;
  lines_read: number;
  runs_indexed: number;
}

const DEFAULT_LIMIT = 20;

/** The command `open` run from the searching workspace: `aop --root <where> …` for another one. */
function fromHere(command: string, where: string): string {
  return where === "" || !command.startsWith("aop ") ? command : `aop --root ${quoteArg(where)} ${command.slice(4)}`;
}

function toHit(doc: PlacedDoc, words: readonly string[], ws: SearchedWorkspace | undefined): SearchHit {
  const hit: SearchHit = { kind: doc.kind, ts: doc.ts, title: doc.title, snippet: snippet(doc, words), open: fromHere(doc.open, doc.where) };
  if (doc.state !== undefined) hit.state = fromHere(doc.state, doc.where);
  if (doc.run_id !== undefined) hit.run_id = doc.run_id;
  if (doc.sequence !== undefined) hit.sequence = doc.sequence;
  if (doc.feature_id !== undefined) hit.feature_id = doc.feature_id;
  if (doc.tool_name !== undefined) hit.tool_name = doc.tool_name;
  if (doc.result !== undefined) hit.result = doc.result;
  if (doc.skill !== undefined) hit.skill = doc.skill;
  if (doc.where !== "") hit.workspace = doc.where;
  if (ws?.origin) hit.origin = ws.origin;
  return hit;
}

export async function search(layout: WorkspaceLayout, args: SearchArgs, nowMs: number): Promise<SearchResult> {
  const words = parseQuery(args.query);
  const since = args.since === undefined ? null : parseSince(args.since, nowMs);
  const filter: SearchFilter = { tool_name: args.tool_name, feature_id: args.feature_id, result: args.result, since: since ?? undefined, kinds: args.kinds };
  for (const key of Object.keys(filter) as (keyof SearchFilter)[]) if (filter[key] === undefined) delete filter[key];
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = new NewestPage<PlacedDoc>(limit + 1, args.cursor === undefined ? null : decodeCursor(args.cursor));
  const workspaces = searchedWorkspaces(layout, { all: args.all === true, origin: args.origin });
  const byWhere = new Map(workspaces.map((w) => [w.where, w]));
  const stats: StepSearchStats = { lines_read: 0, runs_indexed: 0, matched: 0 };
  const wants = (kind: HitKind) => filter.kinds === undefined || filter.kinds.includes(kind);
  let total = 0;
  for (const ws of workspaces) {
    const useIndex = args.use_index !== false && !ws.readOnly;
    if (args.reindex === true && !ws.readOnly) dropIndexes(ws.layout);
    const offer = (doc: Omit<PlacedDoc, "where">) => {
      const placed = { ...doc, where: ws.where };
      if (!docMatches(placed, words, filter)) return;
      total += 1;
      page.offer(placed);
    };
    const runs = wants("run") || wants("step") ? await listRuns(ws.layout) : [];
    const ledger = wants("step") && runs.length > 0 ? ledgerBuckets(ws.layout) : null;
    for (const run of runs) {
      if (run.problem !== null) continue;
      if (wants("run")) offer(runDoc(run));
      if (wants("step")) searchRunSteps(ws.layout, run.run_id, { words, filter, useIndex, where: ws.where, ledger }, page, stats);
    }
    if (wants("checkpoint")) for (const doc of checkpointDocs(ws.layout)) offer(doc);
    if (wants("memory")) for (const doc of memoryDocs(ws.layout, layout.root)) offer(doc);
    if (wants("finding")) for (const doc of findingDocs(ws.layout, layout.root)) offer(doc);
    if (wants("gate")) for (const doc of gateDocs(ws.layout, layout.root)) offer(doc);
  }
  total += stats.matched;
  const shown = page.items.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    words,
    since,
    hits: shown.map((d) => toHit(d, words, byWhere.get(d.where))),
    total_matched: total,
    next_cursor: page.items.length > limit && last ? encodeCursor(last) : null,
    workspaces: workspaces.length,
    lines_read: stats.lines_read,
    runs_indexed: stats.runs_indexed,
  };
}

