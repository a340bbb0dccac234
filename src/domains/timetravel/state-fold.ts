// Folds a run's recorded steps into the kernel's state (docs/replay.md, "Time travel"). Pure: the loader
// (state-load.ts) reads the timeline, the ledger's answers, the chains and git; this only reasons.
// A step changes the state only through its recorded answer: a read changes nothing, a refused call
// changes nothing, a replay returns an earlier answer and changes nothing; an answer the ledger no longer
// holds makes what that tool writes unknown from that step on, until a later answer tells it again.
import type { CheckpointAt, FeatureAt, Known, Unknown } from "./state-types.js";

/** The part of a timeline entry the fold reads. */
export interface StepEntry {
  sequence: number;
  ts: string;
  tool_name: string;
  feature_id: string | null;
  mutating: boolean;
  operation_id: string | null;
  idempotency_status: string;
  result: "ok" | "error";
  error_code: string | null;
}

type RecordedEnvelope = { ok: true; data: unknown } | { ok: false; error: { code: string; message?: string; details?: unknown } };

/** A step and its recorded answer: the envelope, why there is none, or null for a call that needs none. */
export interface RecordedStep {
  entry: StepEntry;
  answer: { envelope: RecordedEnvelope } | Unknown | null;
}

interface LeaseCore {
  run_id: string;
  owner: string;
  instance_id: string;
  lease_expires_at: string;
  released_at: string | null;
  since_sequence: number;
}

interface EvidenceBase {
  chain_length: number;
  head_hash: string | null;
  since_sequence: number;
}

/** The state as the fold carries it; `materialize` (state-view.ts) turns it into what is shown. */
export interface FoldState {
  features: Record<string, FeatureAt>;
  lease: Known<LeaseCore> | null;
  sessions: Known<Record<string, Record<string, string>>> | null;
  /** Heads told by this run's own gate and reset answers (null: the run has not touched the chain). */
  evidence: Record<string, Known<EvidenceBase> | null>;
  checkpoints: Record<string, Known<CheckpointAt>>;
  /** Set when a checkpoint call's answer is missing: which skill it changed cannot be told. */
  checkpointsUnknown: Unknown | null;
}

export function emptyState(): FoldState {
  return { features: {}, lease: null, sessions: null, evidence: {}, checkpoints: {}, checkpointsUnknown: null };
}

/** Codes under which a mutating call may have changed something before it ended. */
const MAY_HAVE_APPLIED = new Set(["operation_interrupted"]);

const LEASE_TOOLS = new Set(["run.start", "run.heartbeat", "run.stop", "session.assign"]);
const CHECKPOINT_TOOLS = new Set(["checkpoint.update", "checkpoint.done", "checkpoint.reset"]);
/** The tools whose recorded answers change the state this view follows. */
export const STATE_TOOLS: ReadonlySet<string> = new Set(["feature.init", "feature.set_status", "gates.run", "evidence.reset_chain", ...LEASE_TOOLS, ...CHECKPOINT_TOOLS]);

/** Apply one step to `state` (in place) and say in words what it did. */
export function applyStep(state: FoldState, step: RecordedStep): string {
  const e = step.entry;
  if (!STATE_TOOLS.has(e.tool_name)) return e.mutating ? "changed no state this view follows" : "a read: changed nothing";
  if (e.idempotency_status === "replay") return `replayed the answer recorded for ${e.operation_id ?? "its operation"}: changed nothing`;
  if (e.idempotency_status === "mismatch") return "refused (operation_id reused with other arguments): changed nothing";
  const answer = step.answer;
  const envelope = answer !== null && "envelope" in answer ? answer.envelope : null;
  if (e.result === "error") {
    const code = e.error_code ?? (envelope && !envelope.ok ? envelope.error.code : "error");
    if (e.tool_name === "gates.run" && code === "gate_failed") {
      if (envelope && !envelope.ok) return applyGate(state, e, envelope.error.details, "gate failed");
      return forget(state, e, reasonOf(answer, e));
    }
    if (MAY_HAVE_APPLIED.has(code)) return forget(state, e, `step ${e.sequence} (${e.tool_name}) was interrupted: what it changed is not recorded`);
    return `refused (${code}): changed nothing`;
  }
  if (!envelope || !envelope.ok) return forget(state, e, reasonOf(answer, e));
  return applyAnswer(state, e, envelope.data);
}

function reasonOf(answer: RecordedStep["answer"], e: StepEntry): string {
  if (answer !== null && "unknown" in answer) return answer.unknown;
  return `step ${e.sequence} (${e.tool_name}) has no recorded answer`;
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function applyAnswer(state: FoldState, e: StepEntry, data: unknown): string {
  const d = record(data) ?? {};
  switch (e.tool_name) {
    case "feature.init":
    case "feature.set_status": {
      const f = record(d.feature);
      if (!f || typeof f.feature_id !== "string") return forget(state, e, `step ${e.sequence} (${e.tool_name}) has an answer without a feature`);
      const status = f.status as FeatureAt["status"];
      state.features[f.feature_id] = { status, version: f.version as number, since_sequence: e.sequence };
      return e.tool_name === "feature.init" ? `created ${f.feature_id} (${String(status)}, version ${String(f.version)})` : `set ${f.feature_id} to ${String(status)} (version ${String(f.version)})`;
    }
    case "gates.run":
      return applyGate(state, e, d, "gate passed");
    case "evidence.reset_chain": {
      const featureId = typeof d.feature_id === "string" ? d.feature_id : e.feature_id;
      if (!featureId) return "reset a chain this view cannot name";
      state.evidence[featureId] = { chain_length: 0, head_hash: null, since_sequence: e.sequence };
      return `reset ${featureId}'s evidence chain`;
    }
    case "checkpoint.update":
    case "checkpoint.done":
    case "checkpoint.reset":
      return applyCheckpoint(state, e, d);
    default:
      return applyLease(state, e, d);
  }
}

function applyLease(state: FoldState, e: StepEntry, d: Record<string, unknown>): string {
  const l = record(d.lease);
  if (!l) return forget(state, e, `step ${e.sequence} (${e.tool_name}) has an answer without a lease`);
  state.lease = {
    run_id: String(l.run_id),
    owner: String(l.owner),
    instance_id: String(l.instance_id),
    lease_expires_at: String(l.lease_expires_at),
    released_at: typeof l.released_at === "string" ? l.released_at : null,
    since_sequence: e.sequence,
  };
  state.sessions = copySessions(l.sessions);
  switch (e.tool_name) {
    case "run.start":
      return `${String(d.outcome ?? "acquired").replace("_", " ")} the run lease for ${String(l.owner)} until ${String(l.lease_expires_at)}`;
    case "run.heartbeat":
      return `extended the run lease to ${String(l.lease_expires_at)}`;
    case "run.stop":
      return "released the run lease";
    default:
      return `assigned ${String(d.role)} session ${String(d.session_id)} to ${String(d.feature_id)}`;
  }
}

function copySessions(value: unknown): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [featureId, roles] of Object.entries(record(value) ?? {})) {
    const r = record(roles);
    if (!r) continue;
    out[featureId] = {};
    for (const [role, session] of Object.entries(r)) if (typeof session === "string") out[featureId]![role] = session;
  }
  return out;
}

/** A gate run's report (a pass's data, a failure's error details): the chain entry it appended and its state write. */
function applyGate(state: FoldState, e: StepEntry, report: unknown, verb: string): string {
  const r = record(report) ?? {};
  const featureId = typeof r.feature_id === "string" ? r.feature_id : e.feature_id;
  if (!featureId) return `${verb} for a feature this view cannot name`;
  const chain = record(r.chain);
  if (chain && typeof chain.sequence === "number" && typeof chain.chain_hash === "string") {
    state.evidence[featureId] = { chain_length: chain.sequence + 1, head_hash: chain.chain_hash, since_sequence: e.sequence };
  }
  // The gate's result is written into state.md only when its evidence became the newest (evidence-commit).
  if (r.is_latest === true) {
    const f = state.features[featureId];
    if (f && typeof f.version === "number") state.features[featureId] = { ...f, version: f.version + 1, since_sequence: e.sequence };
    else if (!f) state.features[featureId] = { status: { unknown: `${featureId} was created before this run and no answer in it up to here tells its status` }, version: { unknown: `${featureId} was created before this run: its version before the gate is not in this run's record` }, since_sequence: e.sequence };
  }
  return `${verb}: ${String(r.mode ?? "gate")} for ${featureId}${chain ? `, chain entry ${String(chain.sequence)}` : ", no chain entry (integrity off)"}`;
}

function applyCheckpoint(state: FoldState, e: StepEntry, d: Record<string, unknown>): string {
  const skill = typeof d.skill === "string" ? d.skill : null;
  if (!skill) return forget(state, e, `step ${e.sequence} (${e.tool_name}) has an answer without a skill`);
  if (e.tool_name === "checkpoint.reset") {
    delete state.checkpoints[skill];
    return `moved ${skill}'s checkpoint to history`;
  }
  if (e.tool_name === "checkpoint.update") {
    const c = record(d.checkpoint) ?? {};
    state.checkpoints[skill] = checkpointFromFile(c, "ledger");
    return `updated ${skill}'s checkpoint (${String(c.status)})`;
  }
  const before = state.checkpoints[skill];
  const known = before && !("unknown" in before) ? before : null;
  state.checkpoints[skill] = {
    status: typeof d.status === "string" ? d.status : { unknown: "not in the answer" },
    step: known ? known.step : { unknown: `the step of ${skill} before this run's first checkpoint.update is not in this answer` },
    next_action: typeof d.next_action === "string" || d.next_action === null ? (d.next_action as string | null) : { unknown: "not in the answer" },
    updated_at: { unknown: "checkpoint.done does not answer with the time it wrote" },
    source: "ledger",
  };
  return `marked ${skill}'s next action done`;
}

/** A checkpoint file's fields this view shows (from an answer or a committed file). */
export function checkpointFromFile(c: Record<string, unknown>, source: string): CheckpointAt {
  const first = Array.isArray(c.next_actions) ? c.next_actions[0] : undefined;
  const next = typeof first === "string" ? first : typeof record(first)?.text === "string" ? (record(first)!.text as string) : null;
  return {
    status: typeof c.status === "string" ? c.status : { unknown: "the checkpoint has no status" },
    step: typeof c.step === "string" ? c.step : { unknown: "the checkpoint has no step" },
    next_action: next,
    updated_at: typeof c.updated_at === "string" ? c.updated_at : { unknown: "the checkpoint has no updated_at" },
    source,
  };
}

/** What `e`'s tool writes becomes unknown, for `reason`. */
function forget(state: FoldState, e: StepEntry, reason: string): string {
  const unknown: Unknown = { unknown: reason };
  const f = e.feature_id;
  switch (e.tool_name) {
    case "feature.init":
    case "feature.set_status":
      if (f) state.features[f] = { status: unknown, version: unknown, since_sequence: e.sequence };
      break;
    case "gates.run":
      if (f) {
        state.evidence[f] = unknown;
        const before = state.features[f];
        state.features[f] = { status: before?.status ?? unknown, version: unknown, since_sequence: e.sequence };
      }
      break;
    case "evidence.reset_chain":
      if (f) state.evidence[f] = unknown;
      break;
    case "session.assign":
      state.sessions = unknown;
      break;
    case "run.start":
    case "run.heartbeat":
    case "run.stop":
      state.lease = unknown;
      state.sessions = unknown;
      break;
    default:
      // A checkpoint call without its answer: which skill it changed is not in the timeline line.
      state.checkpointsUnknown = unknown;
  }
  return `unknown: ${reason}`;
}
