// The page's address fragment: `#run=<id>&seq=<n>` selects an entry, other keys a view, filters or the
// runs compared. Parsing never throws: a hand-edited link opens whatever it still names. Pure.
import { FACETS, NO_FILTER, type EntryFilter, type Facet } from "./filters.js";

export const VIEWS = ["runs", "timeline", "tools", "features", "checkpoints", "doctor", "diff"] as const;
export type View = (typeof VIEWS)[number];

export interface LinkState {
  view: View | null;
  run: string | null;
  seq: number | null;
  filter: EntryFilter;
  /** The runs compared by the diff view. */
  a: string | null;
  b: string | null;
}

/** Short keys of the filters in the fragment. */
const FILTER_KEYS: Record<Facet, string> = { tool: "tool", result: "result", idempotency: "idem", feature: "feature", mutating: "mut" };

export function emptyLink(): LinkState {
  return { view: null, run: null, seq: null, filter: { ...NO_FILTER }, a: null, b: null };
}

export function parseHash(hash: string): LinkState {
  const state = emptyLink();
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  } catch {
    return state;
  }
  const view = params.get("view");
  if (view !== null && (VIEWS as readonly string[]).includes(view)) state.view = view as View;
  state.run = nonEmpty(params.get("run"));
  const seq = params.get("seq");
  if (seq !== null && /^\d{1,15}$/.test(seq)) state.seq = Number(seq);
  for (const facet of FACETS) state.filter[facet] = params.get(FILTER_KEYS[facet]);
  state.filter.text = params.get("q") ?? "";
  state.a = nonEmpty(params.get("a"));
  state.b = nonEmpty(params.get("b"));
  if (state.view === null) state.view = state.a !== null || state.b !== null ? "diff" : state.run !== null ? "timeline" : null;
  return state;
}

export function formatHash(state: LinkState): string {
  const params = new URLSearchParams();
  if (state.view !== null && !(state.view === "timeline" && state.run !== null)) params.set("view", state.view);
  if (state.run !== null) params.set("run", state.run);
  if (state.seq !== null) params.set("seq", String(state.seq));
  for (const facet of FACETS) {
    const value = state.filter[facet];
    if (value !== null) params.set(FILTER_KEYS[facet], value);
  }
  if (state.filter.text !== "") params.set("q", state.filter.text);
  if (state.view === "diff") {
    if (state.a !== null) params.set("a", state.a);
    if (state.b !== null) params.set("b", state.b);
  }
  const text = params.toString();
  return text === "" ? "" : `#${text}`;
}

function nonEmpty(value: string | null): string | null {
  return value === null || value === "" ? null : value;
}
