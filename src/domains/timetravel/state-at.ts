// replay.state_at: the kernel's state just after one step of a run, rebuilt from the record only — the
// timeline, the ledger's recorded answers, the evidence chains and the git history of `.checkpoints/` —
// never from today's feature or lease files (docs/replay.md, "Time travel"). Reads the run's timeline
// once; the ledger only for the state-changing calls it folds.
import { AopError } from "../../core/errors.js";
import { validateId } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readSparse } from "../replay/index.js";
import { answerOf, LedgerLookup, stepEntry } from "./recorded-answer.js";
import { applyStep, emptyState, type FoldState, type RecordedStep, type StepEntry } from "./state-fold.js";
import { diffStates, materialize } from "./state-view.js";
import type { KernelState, StateChange, StepSummary } from "./state-types.js";
import { ViewSources } from "./view-sources.js";

// Without its opening quote: a search for a needle starting with `"` stops at every key and value.
const MUTATING = Buffer.from('mutating":true');

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
  // Only state-changing calls (all mutating) and the steps asked about are parsed in full: any other line
  // changes nothing but the time, which the steps asked about carry themselves.
  const asked = new Set([0, query.sequence - 1, ...targets]);
  const parse = (sequence: number, line: Buffer) => asked.has(sequence) || line.indexOf(MUTATING) !== -1;
  for (const { sequence, entry } of readSparse(layout, runId, parse)) {
    last = sequence;
    if (!entry) continue;
    if (sequence <= upTo) steps.push(stepEntry(entry));
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
  const ledger = new LedgerLookup(layout);
  const gateAnswers: { entry: StepEntry; answer: RecordedStep["answer"] }[] = [];
  for (const entry of steps) {
    const answer = answerOf(ledger, entry);
    if (entry.tool_name === "gates.run") gateAnswers.push({ entry, answer });
    const effect = applyStep(state, { entry, answer });
    if (entry.sequence === query.sequence) effects.set(entry.sequence, effect);
    if (wanted.has(entry.sequence)) snapshots.set(entry.sequence, { state: structuredClone(state), ts: entry.ts });
  }
  for (const entry of laterGates) gateAnswers.push({ entry, answer: answerOf(ledger, entry) });

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
