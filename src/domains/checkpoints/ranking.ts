// `next`: the single most urgent action across all skills, chosen as the Checkpoint Protocol's
// reference CLI chooses it (docs/checkpoints.md). Pure. It reads documents as they are, valid or not
// (the reference ranks files with errors too), so every field is checked for its type before use.
//
// Ranks: 1 a blocker needing a user decision (any status) · 2 failed or blocked · 3 in progress at a
// gate · 4 in progress · 5 complete with queued actions · 6 anything else. Within a rank: over budget
// first, then the newest updated_at (unreadable counts as oldest), then file name.
import { overBudget } from "./checkpoint-rules.js";
import { finishedTicketIn, type DoneTickets } from "./done-evidence.js";

export type NextRank = 1 | 2 | 3 | 4 | 5 | 6;

export interface RankInput {
  /** File name in the folder (the last tie-break). */
  file: string;
  document: Record<string, unknown>;
  /** False when the file has validation errors (it is ranked all the same). */
  valid: boolean;
}

export interface NextPick {
  skill: string;
  file: string;
  status: string | null;
  phase: string | null;
  step: string | null;
  updated_at: string | null;
  rank: NextRank;
  why: string;
  action: string;
  /** True when the action says to reconcile because every candidate names finished work. */
  all_stale: boolean;
  /** Leading queued actions skipped because they name finished work. */
  skipped: number;
  over_budget: boolean;
  valid: boolean;
}

type Doc = Record<string, unknown>;

const RESOLVE = "Resolve the blocker, then resume.";
const RECOVER = "Diagnose and recover.";
const NOTHING_QUEUED = "No queued next action — review the checkpoint.";

function records(list: unknown): Doc[] {
  return Array.isArray(list) ? list.filter((x): x is Doc => x !== null && typeof x === "object") : [];
}

function textOrEmpty(x: unknown): string {
  return typeof x === "string" ? x : x === undefined || x === null ? "" : String(x);
}

const GATE_WORDS = /\bgate\b|approval|approve|sign-?off|awaiting/;
const GATE_ROW = /gate|approval|approve/i;

/** In progress at a gate: the words of phase and step, or an in-progress table row about a gate or an approval. */
export function looksLikeGate(doc: Doc): boolean {
  if (GATE_WORDS.test(`${textOrEmpty(doc.phase)} ${textOrEmpty(doc.step)}`.toLowerCase())) return true;
  return records(doc.progress_table).some((r) => r.status === "in_progress" && GATE_ROW.test(`${String(r.id)} ${String(r.label)}`));
}

export function rankOf(doc: Doc): NextRank {
  if (records(doc.blockers).some((b) => b.needs === "user_decision")) return 1;
  if (doc.status === "failed" || doc.status === "blocked") return 2;
  if (doc.status === "in_progress") return looksLikeGate(doc) ? 3 : 4;
  if (doc.status === "complete" && Array.isArray(doc.next_actions) && doc.next_actions.length > 0) return 5;
  return 6;
}

/** A queued action's text: the string, or an object's `text`. */
function actionTextOf(action: unknown): string {
  if (action === null || action === undefined) return "";
  if (typeof action === "string") return action;
  if (typeof action === "object" && typeof (action as Doc).text === "string") return (action as Doc).text as string;
  return String(action);
}

/** The first queued action that names no finished work (an empty one ends the search), and how many were skipped. */
function firstFreshAction(actions: unknown, done: DoneTickets): { action: string; skipped: number; allStale: boolean } {
  let skipped = 0;
  for (const a of Array.isArray(actions) ? actions : []) {
    const text = actionTextOf(a);
    if (text && finishedTicketIn(text, done)) {
      skipped++;
      continue;
    }
    return { action: text, skipped, allStale: false };
  }
  return { action: "", skipped, allStale: skipped > 0 };
}

/** The summary's first sentence (up to the first space after a full stop), or "<skill> is <status>". */
function summaryLead(doc: Doc): string {
  const summary = doc.progress_summary;
  if (summary === undefined || summary === null || summary === "" || summary === false || summary === 0) return `${textOrEmpty(doc.skill)} is ${textOrEmpty(doc.status)}`;
  return String(summary).split(/(?<=\.)\s/)[0]!;
}

function recommend(doc: Doc, done: DoneTickets): Pick<NextPick, "why" | "action" | "all_stale" | "skipped"> {
  const blockers = records(doc.blockers);
  const decision = blockers.find((b) => b.needs === "user_decision");
  if (decision) {
    const proposed = textOrEmpty(decision.proposed_resolution);
    const stale = proposed !== "" && finishedTicketIn(proposed, done) !== null;
    return { why: `Blocked on your decision: ${textOrEmpty(decision.description)}`, action: proposed === "" || stale ? RESOLVE : proposed, all_stale: stale, skipped: 0 };
  }
  const status = textOrEmpty(doc.status);
  if (status === "failed" || status === "blocked") {
    const first = blockers[0];
    const why = first ? `${status}: ${textOrEmpty(first.description)}` : `${status} — needs recovery`;
    const proposed = textOrEmpty(first?.proposed_resolution);
    if (proposed !== "" && !finishedTicketIn(proposed, done)) return { why, action: proposed, all_stale: false, skipped: 0 };
    const fresh = firstFreshAction(doc.next_actions, done);
    return { why, action: fresh.action || RECOVER, all_stale: fresh.allStale && !fresh.action, skipped: fresh.skipped };
  }
  const fresh = firstFreshAction(doc.next_actions, done);
  let why = summaryLead(doc);
  if (overBudget(doc.cost)) {
    const cost = doc.cost as { total_usd: number; budget_usd: number };
    why = `⚠ over budget ($${cost.total_usd} > $${cost.budget_usd}) — ${why}`;
  }
  if (fresh.skipped > 0) why = `${why}  (skipped ${fresh.skipped} stale action${fresh.skipped === 1 ? "" : "s"} referencing already-merged work)`;
  const queued = Array.isArray(doc.next_actions) ? doc.next_actions.length : 0;
  const action = fresh.allStale
    ? `All ${queued} queued action(s) reference already-merged/-completed work — run \`checkpoint doctor\` and reconcile this checkpoint before continuing.`
    : fresh.action || NOTHING_QUEUED;
  return { why, action, all_stale: fresh.allStale, skipped: fresh.skipped };
}

function field(doc: Doc, key: string): string | null {
  const v = doc[key];
  return v === undefined || v === null ? null : textOrEmpty(v);
}

function pickFor(input: RankInput, done: DoneTickets): NextPick {
  const doc = input.document;
  const skill = field(doc, "skill") ?? input.file.replace(/\.checkpoint\.json$/, "");
  const { why, action, all_stale, skipped } = recommend(doc, done);
  return {
    skill, file: input.file, status: field(doc, "status"), phase: field(doc, "phase"), step: field(doc, "step"), updated_at: field(doc, "updated_at"),
    rank: rankOf(doc), why, action, all_stale, skipped, over_budget: overBudget(doc.cost), valid: input.valid,
  };
}

function updatedMs(pick: NextPick): number {
  return Date.parse(pick.updated_at ?? "") || 0;
}

/** Every checkpoint, most urgent first (files in name order, so equal ones keep that order). */
export function rankCheckpoints(inputs: readonly RankInput[], done: DoneTickets = new Map()): NextPick[] {
  return inputs.map((input) => pickFor(input, done)).sort((a, b) => a.rank - b.rank || Number(b.over_budget) - Number(a.over_budget) || updatedMs(b) - updatedMs(a));
}

export function pickNext(inputs: readonly RankInput[], done: DoneTickets = new Map()): NextPick | null {
  return rankCheckpoints(inputs, done)[0] ?? null;
}
