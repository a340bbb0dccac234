// A run's states step by step, compactly, for the report's page (docs/report.md, "State at a step"): the
// state's leaves before the first step, then for each step that changed something what it did and the
// leaves it changed. The page rebuilds the state after any step by applying the changes up to it.
import type { WorkspaceLayout } from "../../store/layout.js";
import { CheckpointHistory } from "./checkpoint-git.js";
import { answerOf, LedgerLookup, stepEntry } from "./recorded-answer.js";
import { applyStep, emptyState, STATE_TOOLS, type RecordedStep, type StepEntry } from "./state-fold.js";
import { diffStates, materialize, stateLeaves } from "./state-view.js";
import type { KernelState } from "./state-types.js";
import { ViewSources } from "./view-sources.js";

export interface StateTrack {
  /** The state's leaves before the run's first step: `[path, value]`. */
  initial: [string, unknown][];
  /** Each step that changed the state or called a state-changing tool: `[sequence, effect, [[path, before, after]…]]`. */
  steps: [number, string, [string, unknown, unknown][]][];
  /** The last step the track covers (-1: none). */
  through: number;
  /** Why the track stops early, or null. */
  note: string | null;
}

/** State-changing calls followed per run: each reads one ledger record and adds its changes to the page (the bound of the report's ledger look-ups). */
const MAX_STATE_CALLS = 2_000;

/**
 * The track of a run whose entries, from sequence 0 on, are `entries` (in sequence order). Tracks of
 * several runs share one `history`, so git is asked once per report, not once per run.
 */
export function stateTrack(layout: WorkspaceLayout, entries: readonly StepEntry[], history: CheckpointHistory = new CheckpointHistory(layout)): StateTrack {
  const first = entries[0];
  if (!first) return { initial: [], steps: [], through: -1, note: null };
  let calls = 0;
  let cut: number | null = null;
  const recorded: RecordedStep[] = [];
  const ledger = new LedgerLookup(layout);
  for (const raw of entries) {
    const entry = stepEntry(raw);
    if (STATE_TOOLS.has(entry.tool_name) && ++calls > MAX_STATE_CALLS) {
      cut = entry.sequence;
      break;
    }
    recorded.push({ entry, answer: answerOf(ledger, entry) });
  }
  const sources = new ViewSources(layout, recorded.filter((r) => r.entry.tool_name === "gates.run"), history);
  const state = emptyState();
  const view = (sequence: number, ts: string): KernelState => materialize(state, sources.context(state, sequence, ts));
  let before = view(-1, first.ts);
  const track: StateTrack = { initial: stateLeaves(before), steps: [], through: recorded.at(-1)?.entry.sequence ?? -1, note: cut === null ? null : `the state is followed up to step ${cut - 1}: the run has more than ${MAX_STATE_CALLS} state-changing calls (aop state --at N reads any step)` };
  let commit = sources.history.commitAt(first.ts);
  for (const step of recorded) {
    const { entry } = step;
    const effect = applyStep(state, step);
    // Between state-changing calls only time moves: a lease running out, a commit of .checkpoints/.
    const nextCommit = sources.history.commitAt(entry.ts);
    const lease = before.lease;
    const expires = "unknown" in lease || lease.released || lease.expired ? null : lease.lease_expires_at;
    if (!STATE_TOOLS.has(entry.tool_name) && nextCommit === commit && (expires === null || Date.parse(expires) > Date.parse(entry.ts))) continue;
    commit = nextCommit;
    const after = view(entry.sequence, entry.ts);
    const changes = diffStates(before, after);
    if (changes.length > 0 || STATE_TOOLS.has(entry.tool_name)) track.steps.push([entry.sequence, effect, changes.map((c) => [c.path, c.before, c.after])]);
    before = after;
  }
  return track;
}
