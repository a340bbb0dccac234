// The live side of a served page (`aop report --serve`): new entries of the run on screen arrive over
// server-sent events from the same origin (the only connection its CSP allows); runs and envelopes
// the page does not hold are fetched on demand. See docs/report.md for the protocol.
import type { LedgerView, RunView } from "../report-types.js";
import type { EncodedTimeline } from "../timeline-codec.js";

interface EntriesEvent {
  run_id: string;
  cursor: number;
  chunk: EncodedTimeline;
}

export interface TimelineResponse {
  run: RunView;
  timeline: EncodedTimeline;
  cursor: number;
}

export interface LiveHandlers {
  entries(event: EntriesEvent): void;
  runs(runs: RunView[]): void;
  /** The run's file was replaced or pruned: load it again. */
  reset(runId: string): void;
  status(text: string): void;
}

export class LiveClient {
  private source: EventSource | null = null;
  private following: string | null = null;

  constructor(private readonly handlers: LiveHandlers) {}

  follow(runId: string, cursor: number): void {
    if (this.following === runId && this.source) return;
    this.source?.close();
    this.following = runId;
    const source = new EventSource(`/events?${new URLSearchParams({ run: runId, cursor: String(cursor) }).toString()}`);
    this.source = source;
    source.addEventListener("open", () => this.handlers.status(`live: following ${runId}`));
    source.addEventListener("error", () => this.handlers.status("live: reconnecting…"));
    source.addEventListener("entries", (ev) => this.handlers.entries(JSON.parse((ev as MessageEvent<string>).data) as EntriesEvent));
    source.addEventListener("runs", (ev) => this.handlers.runs((JSON.parse((ev as MessageEvent<string>).data) as { runs: RunView[] }).runs));
    source.addEventListener("reset", (ev) => this.handlers.reset((JSON.parse((ev as MessageEvent<string>).data) as { run_id: string }).run_id));
  }

  async timeline(runId: string): Promise<TimelineResponse> {
    const res = await fetch(`/api/timeline?${new URLSearchParams({ run: runId }).toString()}`);
    if (!res.ok) throw new Error(`the server answered ${res.status}`);
    return (await res.json()) as TimelineResponse;
  }

  async ledger(operationId: string): Promise<LedgerView> {
    const res = await fetch(`/api/ledger?${new URLSearchParams({ op: operationId }).toString()}`);
    if (!res.ok) throw new Error(`the server answered ${res.status}`);
    return (await res.json()) as LedgerView;
  }
}
