// Turns the folded state into what is shown at one step, and compares two such states. Pure.
// Evidence heads join this run's answers with today's chain.jsonl up to the step's time; checkpoints join
// this run's answers with `.checkpoints/` as git had it then (docs/replay.md, "Time travel").
import type { FoldState } from "./state-fold.js";
import type { CheckpointAt, EvidenceHeadAt, KernelState, Known, StateChange, Unknown } from "./state-types.js";
import { compareText } from "../../core/compare-text.js";

/** The part of a chain entry the view reads. */
export interface ChainPoint {
  sequence: number;
  chain_hash: string;
  created_at: string;
}

export interface ViewContext {
  /** The step's time. */
  ts: string;
  /** Today's chain per feature (in sequence order), or why it cannot be read. */
  chains: Record<string, ChainPoint[] | Unknown>;
  /** When each feature's chain was reset (evidence/resets.jsonl). */
  resets: Record<string, string[]>;
  /** Per feature, the lowest chain sequence a gate of this run appended after the step (entries from there on are later). */
  claimedAfter: Record<string, number>;
  /** `.checkpoints/` as committed at the step's time, or why that cannot be told. */
  git: Known<{ commit: string | null; skills: Record<string, CheckpointAt> }>;
}

export function materialize(state: FoldState, ctx: ViewContext): KernelState {
  const nowMs = Date.parse(ctx.ts);
  const lease: KernelState["lease"] =
    state.lease === null
      ? { unknown: "no run.start, run.heartbeat, run.stop or session.assign answer in this run up to this step" }
      : "unknown" in state.lease
        ? state.lease
        : {
            run_id: state.lease.run_id,
            owner: state.lease.owner,
            instance_id: state.lease.instance_id,
            lease_expires_at: state.lease.lease_expires_at,
            released: state.lease.released_at !== null || Date.parse(state.lease.lease_expires_at) === 0,
            expired: state.lease.released_at === null && Date.parse(state.lease.lease_expires_at) !== 0 && Date.parse(state.lease.lease_expires_at) <= nowMs,
            since_sequence: state.lease.since_sequence,
          };
  const sessions = state.sessions ?? { unknown: "no lease answer in this run up to this step tells the sessions" };
  const evidence: KernelState["evidence"] = {};
  const featureIds = new Set([...Object.keys(state.features), ...Object.keys(state.evidence)]);
  for (const f of [...featureIds].sort()) evidence[f] = evidenceHead(f, state.evidence[f] ?? null, ctx);
  return { features: sortedRecord(state.features), lease, sessions, evidence, checkpoints: checkpointsAt(state, ctx) };
}

function evidenceHead(featureId: string, base: FoldState["evidence"][string], ctx: ViewContext): Known<EvidenceHeadAt> {
  if (base !== null && "unknown" in base) return base;
  const chain = ctx.chains[featureId] ?? [];
  const ledger: EvidenceHeadAt | null = base === null ? null : { chain_length: base.chain_length, head_hash: base.head_hash, source: "ledger", since_sequence: base.since_sequence };
  if (!Array.isArray(chain)) return ledger ?? chain;
  if (base === null && (ctx.resets[featureId] ?? []).some((at) => at > ctx.ts)) {
    return { unknown: `${featureId}'s chain was reset after this step; the chain it had then is archived under its evidence/reset-* folder` };
  }
  // Today's chain still holds the head this run's answer named: entries after it written by then (another
  // run's gates) extend it. A chain rewritten since no longer does: the answer stands alone.
  let length = base?.chain_length ?? 0;
  if (ledger !== null && length > 0 && chain[length - 1]?.chain_hash !== base?.head_hash) return ledger;
  const limit = ctx.claimedAfter[featureId] ?? Infinity;
  let head = base?.head_hash ?? null;
  while (length < chain.length && length < limit && chain[length]!.sequence === length && chain[length]!.created_at <= ctx.ts) {
    head = chain[length]!.chain_hash;
    length += 1;
  }
  if (ledger !== null && base !== null && length === base.chain_length) return ledger;
  return { chain_length: length, head_hash: head, source: "chain", since_sequence: base?.since_sequence ?? null };
}

function checkpointsAt(state: FoldState, ctx: ViewContext): KernelState["checkpoints"] {
  const skills: Record<string, Known<CheckpointAt>> = {};
  const git = ctx.git;
  if (!("unknown" in git)) Object.assign(skills, git.skills);
  Object.assign(skills, state.checkpoints);
  if (state.checkpointsUnknown) for (const skill of Object.keys(skills)) skills[skill] = state.checkpointsUnknown;
  return { from_git: "unknown" in git ? git : git.commit, skills: sortedRecord(skills) };
}

function sortedRecord<T>(value: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => compareText(a, b)));
}

/** Bookkeeping fields: where a value came from, not the value itself; a diff leaves them out. */
const PROVENANCE = new Set(["since_sequence", "source"]);

/** Every leaf of a state as `path → value`; an unknown field is one leaf. */
function leaves(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (value !== null && typeof value === "object" && !Array.isArray(value) && !isUnknownLeaf(value)) {
    // An empty map has no leaves: a feature appearing shows as its own fields, not as "{} → …".
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) if (!PROVENANCE.has(key)) leaves(v, prefix ? `${prefix}.${key}` : key, out);
  } else out.set(prefix, value);
  return out;
}

function isUnknownLeaf(value: object): boolean {
  return typeof (value as Unknown).unknown === "string" && Object.keys(value).length === 1;
}

/** A state's leaves as `[path, value]`, in path order (what a diff compares; the report's page rebuilds states from them). */
export function stateLeaves(state: KernelState): [string, unknown][] {
  return [...leaves(state, "", new Map())].sort(([a], [b]) => compareText(a, b));
}

/** What differs between two states, path by path (an absent side is null). */
export function diffStates(before: KernelState, after: KernelState): StateChange[] {
  const a = leaves(before, "", new Map());
  const b = leaves(after, "", new Map());
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  const changes: StateChange[] = [];
  for (const path of paths) {
    const x = a.has(path) ? a.get(path) : null;
    const y = b.has(path) ? b.get(path) : null;
    if (JSON.stringify(x) !== JSON.stringify(y)) changes.push({ path, before: x, after: y });
  }
  return changes;
}
