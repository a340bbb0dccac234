// The orientation block a new session reads first (docs/checkpoints.md `resume`): where the skill stands,
// what needs the user, what to do next, and whether to continue on its own or ask. Pure.
import { actionDoneWhen, actionText, type Blocker, type Checkpoint, type DoneEntry } from "./checkpoint-types.js";
import { staleness, type StaleDays } from "./staleness.js";
import { formatAge } from "../../core/time-format.js";

export interface ResumeBlock {
  skill: string;
  project: string;
  project_dir: string;
  phase: string;
  step: string;
  status: Checkpoint["status"];
  updated_at: string;
  age_ms: number;
  stale: boolean;
  stale_threshold_days: number | null;
  progress_summary: string;
  progress: { done: number; total: number };
  decisions_needed: Blocker[];
  other_blockers: Blocker[];
  next_action: { text: string; done_when: string | null } | null;
  queued_actions: number;
  key_decisions: string[];
  user_preferences: string[];
  recently_done: DoneEntry[];
  decision: "continue" | "ask";
  reason: string;
}

const RECENT_SHOWN = 3;

function decide(checkpoint: Checkpoint, block: Omit<ResumeBlock, "decision" | "reason">): Pick<ResumeBlock, "decision" | "reason"> {
  const first = block.decisions_needed[0];
  if (first) {
    const more = block.decisions_needed.length > 1 ? ` (and ${block.decisions_needed.length - 1} more)` : "";
    return { decision: "ask", reason: `blocker ${first.id} needs the user's decision${more}: ask before doing anything else` };
  }
  if (checkpoint.status === "failed") return { decision: "ask", reason: "the last session ended in failure: ask the user how to proceed before retrying" };
  if (checkpoint.status === "blocked") {
    const ids = block.other_blockers.map((b) => b.id).join(", ");
    return { decision: "ask", reason: `the skill is blocked${ids ? ` (${ids})` : ""}: ask the user whether the blocker is resolved` };
  }
  if (block.stale) {
    return {
      decision: "ask",
      reason: `last updated ${formatAge(block.age_ms)}, past the ${block.stale_threshold_days}-day threshold for ${checkpoint.status}: confirm the plan still holds`,
    };
  }
  if (checkpoint.status === "complete") {
    const queued = block.queued_actions > 0 ? ` with ${block.queued_actions} queued action${block.queued_actions === 1 ? "" : "s"}` : "";
    return { decision: "ask", reason: `the skill is complete${queued}: ask before starting new work` };
  }
  const when = block.age_ms < 60_000 ? "just now" : formatAge(block.age_ms);
  return { decision: "continue", reason: `in progress and updated ${when} (not stale): continue with the next action` };
}

export function buildResumeBlock(checkpoint: Checkpoint, now: number, staleDays: StaleDays): ResumeBlock {
  const stale = staleness(checkpoint, now, staleDays);
  const rows = checkpoint.progress_table ?? [];
  const blockers = checkpoint.blockers ?? [];
  const first = checkpoint.next_actions?.[0];
  const block = {
    skill: checkpoint.skill,
    project: checkpoint.project,
    project_dir: checkpoint.project_dir,
    phase: checkpoint.phase,
    step: checkpoint.step,
    status: checkpoint.status,
    updated_at: checkpoint.updated_at,
    age_ms: stale.age_ms,
    stale: stale.stale,
    stale_threshold_days: stale.threshold_days,
    progress_summary: checkpoint.progress_summary,
    progress: { done: rows.filter((r) => r.status === "complete").length, total: rows.length },
    decisions_needed: blockers.filter((b) => b.needs === "user_decision"),
    other_blockers: blockers.filter((b) => b.needs !== "user_decision"),
    next_action: first === undefined ? null : { text: actionText(first), done_when: actionDoneWhen(first) ?? null },
    queued_actions: checkpoint.next_actions?.length ?? 0,
    key_decisions: checkpoint.context_primer?.key_decisions ?? [],
    user_preferences: checkpoint.context_primer?.user_preferences ?? [],
    recently_done: (checkpoint.recently_done ?? []).slice(0, RECENT_SHOWN),
  };
  return { ...block, ...decide(checkpoint, block) };
}
