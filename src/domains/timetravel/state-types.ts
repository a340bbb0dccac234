// The shape of "the state after step N" (docs/replay.md, "Time travel"). Types only.

/** A field the record cannot tell, with the reason: never a guess. */
export interface Unknown {
  unknown: string;
}

export type Known<T> = T | Unknown;

export interface FeatureAt {
  status: Known<"active" | "blocked" | "merged">;
  version: Known<number>;
  /** The step whose answer last told this feature's state. */
  since_sequence: number;
}

interface LeaseAt {
  run_id: string;
  owner: string;
  instance_id: string;
  lease_expires_at: string;
  released: boolean;
  /** Held, not released, and past its expiry at the step's time. */
  expired: boolean;
  since_sequence: number;
}

export interface EvidenceHeadAt {
  chain_length: Known<number>;
  head_hash: Known<string | null>;
  /** "ledger" (a gate or reset answered in this run), "chain" (today's chain.jsonl, entries written by then). */
  source: "ledger" | "chain";
  since_sequence: number | null;
}

export interface CheckpointAt {
  status: Known<string>;
  step: Known<string>;
  next_action: Known<string | null>;
  updated_at: Known<string>;
  /** "ledger" (a checkpoint.* answer in this run) or "git:<commit>" (the file as committed then). */
  source: string;
}

export interface KernelState {
  features: Record<string, FeatureAt>;
  lease: Known<LeaseAt>;
  sessions: Known<Record<string, Record<string, string>>>;
  evidence: Record<string, Known<EvidenceHeadAt>>;
  checkpoints: {
    /** Where skills not touched by this run come from: the commit of `.checkpoints/` then, or why not. */
    from_git: Known<string | null>;
    skills: Record<string, Known<CheckpointAt>>;
  };
}

/** What one step was and what it changed. */
export interface StepSummary {
  sequence: number;
  ts: string;
  tool_name: string;
  feature_id: string | null;
  result: "ok" | "error";
  error_code: string | null;
  idempotency_status: string;
  /** What the step did to the state, in words (escaped by the printer, not here). */
  effect: string;
  changes: StateChange[];
}

export interface StateChange {
  /** Dotted path into the state: `features.login.status`, `lease.owner`, `evidence.login.chain_length`. */
  path: string;
  before: unknown;
  after: unknown;
}
