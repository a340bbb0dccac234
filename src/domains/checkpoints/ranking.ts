// `next`: the single most urgent action across all skills (docs/checkpoints.md). Pure.
// Tiers: a blocker needing a user decision > failed/blocked > in progress at a gate/approval step
// > in progress > complete with queued actions; ties → newest updated_at, then skill name.
import { actionText, type Checkpoint } from "./checkpoint-types.js";

export type NextTier = 1 | 2 | 3 | 4 | 5;

export interface NextPick {
  skill: string;
  status: Checkpoint["status"];
  why: string;
  action: string;
  tier: NextTier;
  updated_at: string;
}

/** A step that waits on a gate or a person's approval ranks above ordinary work in progress. */
const GATE_STEP = /\b(gates?|approv\w*|sign[- ]?off)\b/i;

export function isGateStep(step: string): boolean {
  return GATE_STEP.test(step);
}

function firstAction(checkpoint: Checkpoint): string | null {
  const first = checkpoint.next_actions?.[0];
  return first === undefined ? null : actionText(first);
}

/** Why and what for one checkpoint, or null when it asks for nothing. */
export function candidateFor(checkpoint: Checkpoint): NextPick | null {
  const base = { skill: checkpoint.skill, status: checkpoint.status, updated_at: checkpoint.updated_at };
  const decision = checkpoint.blockers?.find((b) => b.needs === "user_decision");
  if (decision) {
    const proposed = decision.proposed_resolution ? ` (proposed: ${decision.proposed_resolution})` : "";
    return { ...base, tier: 1, why: `blocker ${decision.id} needs a user decision`, action: `Ask the user to decide: ${decision.description}${proposed}` };
  }
  const first = firstAction(checkpoint);
  if (checkpoint.status === "failed" || checkpoint.status === "blocked") {
    const blocker = checkpoint.blockers?.[0];
    const action = first ?? (blocker ? `Resolve blocker ${blocker.id}: ${blocker.description}` : `Find out why ${checkpoint.skill} is ${checkpoint.status}: ${checkpoint.progress_summary}`);
    return { ...base, tier: 2, why: `status is ${checkpoint.status}`, action };
  }
  if (checkpoint.status === "in_progress" && first !== null) {
    if (isGateStep(checkpoint.step)) return { ...base, tier: 3, why: `in progress at a gate/approval step (${checkpoint.step})`, action: first };
    return { ...base, tier: 4, why: "in progress", action: first };
  }
  if (checkpoint.status === "complete" && first !== null) {
    const count = checkpoint.next_actions!.length;
    return { ...base, tier: 5, why: `complete with ${count} queued action${count === 1 ? "" : "s"}`, action: first };
  }
  return null;
}

function compare(a: NextPick, b: NextPick): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  const byTime = Date.parse(b.updated_at) - Date.parse(a.updated_at);
  if (byTime !== 0) return byTime;
  return a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : 0;
}

/** Every checkpoint that asks for something, most urgent first. */
export function rankCheckpoints(checkpoints: readonly Checkpoint[]): NextPick[] {
  return checkpoints.map(candidateFor).filter((p): p is NextPick => p !== null).sort(compare);
}

export function pickNext(checkpoints: readonly Checkpoint[]): NextPick | null {
  return rankCheckpoints(checkpoints)[0] ?? null;
}
