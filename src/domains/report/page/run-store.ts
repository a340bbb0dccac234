// The page's runs: decoded on first use, their lanes and search texts computed once, live entries
// appended as the server sends them.
import { assignLanes, type LaneAssignment } from "../lanes.js";
import { searchText } from "../filters.js";
import type { LedgerView, ReportData, RunView, StateTrackView } from "../report-types.js";
import { decodeTimeline, type EncodedTimeline, type ReportEntry } from "../timeline-codec.js";

export interface RunState {
  view: RunView;
  encoded: EncodedTimeline | null;
  decoded: ReportEntry[] | null;
  lanes: LaneAssignment | null;
  haystacks: string[] | null;
  /** Bumped on every change of the entries, so views know to redraw. */
  version: number;
}

export class RunStore {
  readonly runs = new Map<string, RunState>();
  readonly order: string[] = [];
  private readonly ledger = new Map<string, LedgerView>();
  private readonly states: Record<string, StateTrackView>;

  constructor(data: ReportData) {
    const encoded = new Map(data.timelines.map((t) => [t.run_id, t]));
    for (const view of data.runs) this.addRun(view, encoded.get(view.run_id) ?? null);
    for (const [op, entry] of Object.entries(data.ledger)) this.ledger.set(op, entry);
    this.states = data.states ?? {};
  }

  /** The run's state track, when the report was built with one. */
  stateTrack(runId: string): StateTrackView | undefined {
    return Object.hasOwn(this.states, runId) ? this.states[runId] : undefined;
  }

  addRun(view: RunView, encoded: EncodedTimeline | null): RunState {
    let state = this.runs.get(view.run_id);
    if (!state) {
      state = { view, encoded, decoded: null, lanes: null, haystacks: null, version: 0 };
      this.runs.set(view.run_id, state);
      this.order.push(view.run_id);
    } else {
      state.view = view;
      if (encoded) this.replace(state, encoded);
    }
    return state;
  }

  get(runId: string | null): RunState | undefined {
    return runId === null ? undefined : this.runs.get(runId);
  }

  /** The newest run that has entries in the page. */
  firstEmbedded(): string | null {
    return this.order.find((id) => this.runs.get(id)!.encoded !== null) ?? this.order[0] ?? null;
  }

  entries(state: RunState): ReportEntry[] {
    if (state.decoded === null) state.decoded = state.encoded ? decodeTimeline(state.encoded) : [];
    return state.decoded;
  }

  lanes(state: RunState): LaneAssignment {
    return (state.lanes ??= assignLanes(this.entries(state)));
  }

  haystacks(state: RunState): string[] {
    return (state.haystacks ??= this.entries(state).map(searchText));
  }

  replace(state: RunState, encoded: EncodedTimeline): void {
    state.encoded = encoded;
    state.decoded = null;
    state.lanes = null;
    state.haystacks = null;
    state.view.embedded = true;
    state.view.embedded_entries = encoded.n;
    state.version += 1;
  }

  /** Append live entries (a chunk in the same encoding); entries already held are skipped. Returns how many were new. */
  append(state: RunState, chunk: EncodedTimeline): number {
    const entries = this.entries(state);
    const last = entries.length ? entries[entries.length - 1]!.sequence : -1;
    const fresh = decodeTimeline(chunk, entries.length).filter((e) => e.sequence > last);
    fresh.forEach((e, i) => (e.index = entries.length + i));
    if (fresh.length === 0) return 0;
    entries.push(...fresh);
    if (state.haystacks) state.haystacks.push(...fresh.map(searchText));
    state.lanes = null;
    state.view.entries = Math.max(state.view.entries, state.view.omitted_entries + entries.length);
    state.view.embedded_entries = entries.length;
    state.view.errors += fresh.filter((e) => e.result === "error").length;
    state.view.last_entry_at = new Date(fresh[fresh.length - 1]!.ts_ms).toISOString();
    state.version += 1;
    return fresh.length;
  }

  ledgerFor(operationId: string): LedgerView | undefined {
    return this.ledger.get(operationId);
  }

  rememberLedger(view: LedgerView): void {
    this.ledger.set(view.operation_id, view);
  }
}
