// The page's entry filters (tool, result, idempotency status, feature, mutating, free text) and the
// counts beside each choice. Pure; one pass over a run whatever the number of filters.
import type { ReportEntry } from "./timeline-codec.js";

export const FACETS = ["tool", "result", "idempotency", "feature", "mutating"] as const;
export type Facet = (typeof FACETS)[number];

/** A facet's value for each filter; null means "any". A feature of "" matches entries without a feature. */
export type EntryFilter = Record<Facet, string | null> & { text: string };

export const NO_FILTER: EntryFilter = { tool: null, result: null, idempotency: null, feature: null, mutating: null, text: "" };

export type FilterEntry = Pick<
  ReportEntry,
  "sequence" | "tool_name" | "result" | "idempotency_status" | "feature_id" | "mutating" | "session_id" | "actor_type" | "operation_id" | "error_code" | "request_hash" | "agent_id" | "agent_type"
>;

function facetValue(e: FilterEntry, facet: Facet): string {
  switch (facet) {
    case "tool":
      return e.tool_name;
    case "result":
      return e.result;
    case "idempotency":
      return e.idempotency_status;
    case "feature":
      return e.feature_id ?? "";
    case "mutating":
      return e.mutating ? "yes" : "no";
  }
}

/** The lower-cased text the free-text filter searches: every identifying field of the entry. */
export function searchText(e: FilterEntry): string {
  return [e.sequence, e.tool_name, e.result, e.error_code, e.idempotency_status, e.feature_id, e.session_id, e.actor_type, e.operation_id, e.request_hash, e.agent_id, e.agent_type]
    .filter((v) => v !== null && v !== "")
    .join("\u0001")
    .toLowerCase();
}

export function isFiltering(filter: EntryFilter): boolean {
  return FACETS.some((f) => filter[f] !== null) || filter.text.trim() !== "";
}

/** Which filters an entry fails, as a bit per facet (bit FACETS.length for the text). */
function failures(e: FilterEntry, filter: EntryFilter, needle: string, haystack: (i: number) => string, i: number): number {
  let bits = 0;
  for (let f = 0; f < FACETS.length; f++) {
    const want = filter[FACETS[f]!];
    if (want !== null && facetValue(e, FACETS[f]!) !== want) bits |= 1 << f;
  }
  if (needle !== "" && !haystack(i).includes(needle)) bits |= 1 << FACETS.length;
  return bits;
}

export interface FilterResult {
  /** Indexes of the matching entries, in entry order. */
  matches: Int32Array;
  /** For each facet, how many entries each value would match with the other filters kept. */
  counts: Record<Facet, Map<string, number>>;
}

/**
 * Apply `filter` to `entries`. `haystacks` (searchText of each entry, computed once per run) saves
 * rebuilding the text on every keystroke.
 */
export function applyFilter(entries: readonly FilterEntry[], filter: EntryFilter, haystacks?: readonly string[]): FilterResult {
  const needle = filter.text.trim().toLowerCase();
  const haystack = haystacks ? (i: number) => haystacks[i]! : (i: number) => searchText(entries[i]!);
  const counts = Object.fromEntries(FACETS.map((f) => [f, new Map<string, number>()])) as Record<Facet, Map<string, number>>;
  const matches: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const bits = failures(e, filter, needle, haystack, i);
    if (bits === 0) matches.push(i);
    // An entry counts for a facet's values when it passes every other filter.
    for (let f = 0; f < FACETS.length; f++) {
      if ((bits & ~(1 << f)) !== 0) continue;
      const map = counts[FACETS[f]!];
      const value = facetValue(e, FACETS[f]!);
      map.set(value, (map.get(value) ?? 0) + 1);
    }
  }
  return { matches: Int32Array.from(matches), counts };
}
