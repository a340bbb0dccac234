// The data a report page is built from, as embedded in the HTML file (docs/report.md). Shared by the
// writer (Node) and the page (browser): types only, no imports from Node.
import type { RunSummary } from "../../catalog/run-summary.js";
import type { EncodedTimeline } from "./timeline-codec.js";

export const REPORT_FORMAT = 1;

export interface ReportData {
  format: typeof REPORT_FORMAT;
  generated_at: string;
  aop_version: string;
  workspace: { name: string; root: string };
  scope: ReportScope;
  /** Every run with a timeline, newest activity first. */
  runs: RunView[];
  /** The runs whose entries are in the file (see RunView.embedded). */
  timelines: EncodedTimeline[];
  /** Recorded idempotency envelopes of mutating calls, by operation id. */
  ledger: Record<string, LedgerView>;
  features: FeaturesView;
  checkpoints: CheckpointsView;
  doctor: DoctorView;
  /** Per embedded run, its states step by step (docs/report.md, "State at a step"). */
  states?: Record<string, StateTrackView>;
  /** What the report left out, and why (budgets, unreadable files). */
  notes: string[];
}

/**
 * A run's states, compactly (src/domains/timetravel/state-track.ts): the leaves before the first step, then
 * each step that changed something as `[sequence, effect, [[path, before, after]…]]`. An unknown leaf is
 * `{unknown: reason}`.
 */
export interface StateTrackView {
  initial: [string, unknown][];
  steps: [number, string, [string, unknown, unknown][]][];
  /** The last step the track covers (-1: none). */
  through: number;
  note: string | null;
}

interface ReportScope {
  run_ids: string[] | null;
  since: string | null;
  /** True when served by `aop report --serve`: the page may ask the server for more. */
  live: boolean;
}

/** A run's row: its summary (the reason it was not read moves to `note`) and what the file holds of it. */
export interface RunView extends Omit<RunSummary, "problem"> {
  embedded: boolean;
  embedded_entries: number;
  /** Older entries of an embedded run left out (per-run bound, --since). */
  omitted_entries: number;
  /** Why the run's entries are not (all) in the file; null when they are. */
  note: string | null;
  /** Served pages only: the byte offset where the live tail of the run continues. */
  cursor: number | null;
}

export interface LedgerView {
  status: "recorded" | "missing" | "unreadable";
  operation_id: string;
  tool_name?: string;
  request_hash?: string;
  run_id?: string;
  recorded_at?: string;
  /** The envelope exactly as recorded (replays return these bytes); cut at a bound when `truncated`. */
  envelope_json?: string;
  truncated?: boolean;
  reason?: string;
  /** For a gates.run call: the evidence file its envelope names, judged against the feature's chain. */
  evidence?: NamedEvidence;
}

/** Whether a gate evidence file still holds the bytes its chain entry recorded (evidence-trust.ts). */
export type EvidenceTrustView =
  | { status: "chained"; chain_sequence: number }
  | { status: "modified"; chain_sequence: number; expected_hash: string; actual_hash: string | null }
  | { status: "not_chained" };

export interface NamedEvidence {
  feature_id: string;
  /** Workspace-relative, as the chain names it. */
  path: string;
  trust: EvidenceTrustView;
}

export interface FeaturesView {
  integrity_enabled: boolean;
  /** Why the feature index could not be read, when it could not. */
  problem: string | null;
  items: FeatureView[];
}

export interface GateView {
  mode: string;
  /** As state.md recorded it when the gate ran (never read from the evidence file). */
  result: string;
  at: string;
  evidence: string;
  /** How the evidence file compares with its chain entry now; null when state.md names no file. */
  evidence_trust: EvidenceTrustView | null;
}

export interface ChainView {
  status: "valid" | "invalid" | "none" | "unverifiable";
  entry_count: number;
  head_hash: string | null;
  first_failure_sequence: number | null;
  failure_code: string | null;
  failure_reason: string | null;
  artifact: string | null;
  expected_hash: string | null;
  actual_hash: string | null;
}

export interface FeatureView {
  feature_id: string;
  title: string;
  status: string;
  version: number | null;
  updated_at: string | null;
  problem: string | null;
  gates: GateView[];
  chain: ChainView;
}

export interface CheckpointsView {
  exists: boolean;
  dir: string;
  items: CheckpointView[];
}

export interface CheckpointView {
  skill: string;
  file: string;
  valid: boolean;
  errors: string[];
  warnings: number;
  status: string | null;
  phase: string | null;
  step: string | null;
  updated_at: string | null;
  summary: string | null;
  progress: { done: number; total: number } | null;
  blockers: number;
  next_action: string | null;
  why: string | null;
  stale: boolean | null;
}

export interface DoctorFindingView {
  id: string;
  severity: string;
  message: string;
  remediation: string;
  refs: string[];
}

export interface DoctorView {
  status: "present" | "absent" | "unreadable";
  generated_at: string | null;
  ok: boolean | null;
  summary: { critical: number; warning: number; info: number } | null;
  findings: DoctorFindingView[];
  problem: string | null;
}
