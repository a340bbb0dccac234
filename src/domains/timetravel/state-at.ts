// replay.state_at: the kernel's state just after one step of a run, rebuilt from the record only — the
// timeline, the ledger's recorded answers, the evidence chains and the git history of `.checkpoints/` —
// never from today's feature or lease files (docs/replay.md, "Time travel"). Reads the run's timeline
// once; the ledger only for the state-changing calls it folds.
import { AopError } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import { readLedgerEntry } from "../../store/ledger-files.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { readTextBounded } from "../../store/read-text-bounded.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readChainEntries } from "../evidence/index.js";
import { readEntriesFrom } from "../replay/index.js";
import { CheckpointHistory } from "./checkpoint-git.js";
import { applyStep, emptyState, type FoldState, type RecordedStep, type StepEntry } from "./state-fold.js";
import { diffStates, materialize, type ChainPoint, type ViewContext } from "./state-view.js";
import type { KernelState, StateChange, StepSummary, Unknown } from "./state-types.js";

export interface StateAtQuery {
  run_id: string;
  sequence: number;
  diff_sequence?: number;
}

export interface StateAtResult {
  run_id: string;
  sequence: number;
  /** The run's last recorded sequence when it was read. */
  last_sequence: number;
  step: StepSummary;
  state: KernelState;
  diff: { from_sequence: number; to_sequence: number; changes: StateChange[] } | null;
}

/** Tools whose recorded answer the fold reads (state-fold.ts follows the same list). */
const ANSWERED = new Set(["feature.init", "feature.set_status", "gates.run", "evidence.reset_chain", "run.start", "run.heartbeat", "run.stop", "session.assign", "checkpoint.update", "checkpoint.done", "checkpoint.reset"]);

function stepEntry(e: StepEntry): StepEntry {
  const { sequence, ts, tool_name, feature_id, mutating, operation_id, idempotency_status, result, error_code } = e;
  return { sequence, ts, tool_name, feature_id, mutating, operation_id, idempotency_status, result, error_code };
}

/** The recorded answer of a state-changing call, or why the record has none. */
function answerOf(layout: WorkspaceLayout, e: StepEntry): RecordedStep["answer"] {
  if (!ANSWERED.has(e.tool_name) || e.idempotency_status === "replay" || e.idempotency_status === "mismatch") return null;
  if (e.operation_id === null) return { unknown: `step ${e.sequence} (${e.tool_name}) was recorded without an operation id, so no answer was kept` };
  let entry;
  try {
    entry = readLedgerEntry(layout, e.operation_id);
  } catch (err) {
    return { unknown: `the ledger's file for operation ${e.operation_id} cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (entry.kind === "none") return { unknown: `the ledger no longer holds the answer of operation ${e.operation_id} (step ${e.sequence}, ${e.tool_name}): pruned by idempotency.retention or removed` };
  if (entry.kind === "intent") return { unknown: `operation ${e.operation_id} (step ${e.sequence}, ${e.tool_name}) left only an intent: it was interrupted` };
  try {
    return { envelope: JSON.parse(entry.record.envelope_json) as never };
  } catch {
    return { unknown: `the ledger's answer of operation ${e.operation_id} is not JSON` };
  }
}

function outOfRange(field: string, value: number, runId: string, last: number): AopError {
  return new AopError("replay_sequence_out_of_range", `${field} ${value} is past run '${runId}', whose steps are 0–${last}`, {
    details: { run_id: runId, [field]: value, last_sequence: last },
    hint: `pick a step from 0 to ${last} (see \`aop replay --run-id ${runId}\`)`,
  });
}

export async function stateAt(layout: WorkspaceLayout, query: StateAtQuery): Promise<StateAtResult> {
  const runId = validateId("run_id", query.run_id);
  const targets = [query.sequence, ...(query.diff_sequence === undefined ? [] : [query.diff_sequence])];
  const upTo = Math.max(...targets);
  const steps: StepEntry[] = [];
  const laterGates: StepEntry[] = [];
  let last = -1;
  for await (const entry of readEntriesFrom(layout, runId, 0)) {
    last = entry.sequence;
    if (entry.sequence <= upTo) steps.push(stepEntry(entry));
    else if (entry.tool_name === "gates.run") laterGates.push(stepEntry(entry));
  }
  if (query.sequence > last) throw outOfRange("sequence", query.sequence, runId, last);
  if (query.diff_sequence !== undefined && query.diff_sequence > last) throw outOfRange("diff_sequence", query.diff_sequence, runId, last);
  const bySequence = new Map(steps.map((s) => [s.sequence, s]));
  for (const t of targets) if (!bySequence.has(t)) throw new AopError("replay_sequence_out_of_range", `run '${runId}' has no readable entry at sequence ${t} (a damaged line)`, { details: { run_id: runId, sequence: t, last_sequence: last }, hint: "`aop doctor` reports damaged timeline lines" });

  // Fold once, keeping the states the answer needs: after the step, before it, and after the other step.
  const wanted = new Set([query.sequence, query.sequence - 1, ...(query.diff_sequence === undefined ? [] : [query.diff_sequence])]);
  const snapshots = new Map<number, { state: FoldState; ts: string }>();
  const state = emptyState();
  snapshots.set(-1, { state: emptyState(), ts: steps[0]!.ts });
  const effects = new Map<number, string>();
  const gateAnswers: { entry: StepEntry; answer: RecordedStep["answer"] }[] = [];
  for (const entry of steps) {
    const answer = answerOf(layout, entry);
    if (entry.tool_name === "gates.run") gateAnswers.push({ entry, answer });
    const effect = applyStep(state, { entry, answer });
    if (entry.sequence === query.sequence) effects.set(entry.sequence, effect);
    if (wanted.has(entry.sequence)) snapshots.set(entry.sequence, { state: structuredClone(state), ts: entry.ts });
  }
  for (const entry of laterGates) gateAnswers.push({ entry, answer: answerOf(layout, entry) });

  const sources = new ViewSources(layout, gateAnswers);
  const view = (sequence: number): KernelState => {
    const snap = snapshots.get(sequence) ?? snapshots.get(-1)!;
    return materialize(snap.state, sources.context(snap.state, sequence, snap.ts));
  };
  const after = view(query.sequence);
  const before = query.sequence === 0 ? materialize(emptyState(), sources.context(emptyState(), -1, bySequence.get(0)!.ts)) : view(query.sequence - 1);
  const e = bySequence.get(query.sequence)!;
  const step: StepSummary = {
    sequence: e.sequence,
    ts: e.ts,
    tool_name: e.tool_name,
    feature_id: e.feature_id,
    result: e.result,
    error_code: e.error_code,
    idempotency_status: e.idempotency_status,
    effect: effects.get(e.sequence)!,
    changes: diffStates(before, after),
  };
  const diff = query.diff_sequence === undefined ? null : { from_sequence: query.diff_sequence, to_sequence: query.sequence, changes: diffStates(view(query.diff_sequence), after) };
  return { run_id: runId, sequence: query.sequence, last_sequence: last, step, state: after, diff };
}

/** The chains, resets and git history a view joins with, each read once. */
class ViewSources {
  private readonly chains = new Map<string, ChainPoint[] | Unknown>();
  private readonly resets = new Map<string, string[]>();
  private readonly history: CheckpointHistory;

  constructor(
    private readonly layout: WorkspaceLayout,
    private readonly gates: { entry: StepEntry; answer: RecordedStep["answer"] }[],
  ) {
    this.history = new CheckpointHistory(layout);
  }

  context(state: FoldState, sequence: number, ts: string): ViewContext {
    const features = new Set([...Object.keys(state.features), ...Object.keys(state.evidence)]);
    const ctx: ViewContext = { ts, chains: {}, resets: {}, claimedAfter: {}, git: this.history.at(ts) };
    for (const f of features) {
      ctx.chains[f] = this.chain(f);
      ctx.resets[f] = this.resetTimes(f);
    }
    // Chain entries this run's own later gates appended are after the step, whatever their time says.
    for (const { entry, answer } of this.gates) {
      if (entry.sequence <= sequence || answer === null || !("envelope" in answer)) continue;
      const env = answer.envelope;
      const report = (env.ok ? env.data : env.error.details) as { feature_id?: unknown; chain?: { sequence?: unknown } | null } | undefined;
      const seq = report?.chain?.sequence;
      if (typeof report?.feature_id === "string" && typeof seq === "number") ctx.claimedAfter[report.feature_id] = Math.min(ctx.claimedAfter[report.feature_id] ?? Infinity, seq);
    }
    return ctx;
  }

  private chain(featureId: string): ChainPoint[] | Unknown {
    let chain = this.chains.get(featureId);
    if (!chain) {
      try {
        chain = [...readChainEntries(this.layout, featureId)].map(({ sequence, chain_hash, created_at }) => ({ sequence, chain_hash, created_at }));
      } catch (err) {
        chain = { unknown: `${featureId}'s evidence chain cannot be read: ${err instanceof Error ? err.message : String(err)}` };
      }
      this.chains.set(featureId, chain);
    }
    return chain;
  }

  private resetTimes(featureId: string): string[] {
    let times = this.resets.get(featureId);
    if (!times) {
      times = [];
      try {
        const read = readTextBounded(this.layout.chainResetsFile(featureId), READ_LIMITS.smallRecord);
        if (read.status === "ok") {
          for (const line of read.text.split("\n")) {
            try {
              const at = (JSON.parse(line) as { reset_at?: unknown }).reset_at;
              if (typeof at === "string") times.push(at);
            } catch {
              // a torn or foreign line names no reset
            }
          }
        }
      } catch {
        // an unreadable resets file: the chain is judged by its own entries
      }
      this.resets.set(featureId, times);
    }
    return times;
  }
}
