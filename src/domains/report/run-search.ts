// The page's search box across runs: the entries of every run the page embeds, matched by the words
// rule `aop search` uses (core/search-words.ts) over the fields a step is found by there (the ledger's
// error messages aside: the page embeds only the envelopes it looked up). Pure; newest first, capped.
import { tokenize, tokensMatch } from "../../core/search-words.js";
import type { ReportEntry } from "./timeline-codec.js";

export type SearchableEntry = Pick<ReportEntry, "index" | "sequence" | "ts_ms" | "tool_name" | "result" | "error_code" | "feature_id" | "run_id" | "session_id" | "operation_id" | "agent_type">;

interface RunSearchHit {
  run_id: string;
  entry: SearchableEntry;
}

export interface RunSearchResult {
  hits: RunSearchHit[];
  /** Every match, including those past the cap. */
  total: number;
}

function entryTokens(e: SearchableEntry): string[] {
  return tokenize([e.error_code, e.tool_name, e.feature_id, e.run_id, e.session_id, e.operation_id, e.agent_type, e.result].filter((v) => typeof v === "string" && v !== "").join(" "));
}

/** Entries of `runs` matching every word of `query`, newest first (run id, then sequence, descending on ties); at most `cap`. */
export function searchRuns(runs: readonly { run_id: string; entries: readonly SearchableEntry[] }[], query: string, cap = 200): RunSearchResult {
  const words = [...new Set(tokenize(query))];
  if (words.length === 0) return { hits: [], total: 0 };
  const hits: RunSearchHit[] = [];
  for (const run of runs) for (const entry of run.entries) if (tokensMatch(entryTokens(entry), words)) hits.push({ run_id: run.run_id, entry });
  hits.sort((a, b) => b.entry.ts_ms - a.entry.ts_ms || (a.run_id === b.run_id ? b.entry.sequence - a.entry.sequence : a.run_id < b.run_id ? 1 : -1));
  return { hits: hits.slice(0, cap), total: hits.length };
}
