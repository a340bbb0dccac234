// What a handoff note is made of, read from the local workspace: CURRENT_STATE.md, the checkpoints, the
// newest run's last entry and each evidence chain's head (docs/handoff.md, "Handoff").
import type { Clock } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readJsonlTail } from "../../store/jsonl-tail.js";
import { loadPolicySnapshot } from "../../config/policy-snapshot.js";
import { buildResumeBlock, isOpenCheckpoint, openCheckpointsByUrgency, scanFolder, type Checkpoint, type ResumeBlock } from "../checkpoints/index.js";
import { readStateSummary } from "../continuity/index.js";
import { chainedFeatureIds } from "../evidence/index.js";
import { listRuns } from "../replay/index.js";
import type { ChecklistState } from "./handoff-checklist.js";
import type { HandoffNote } from "./handoff-note.js";
import { compareText } from "../../core/compare-text.js";

const MAX_DECISIONS = 50;
const MAX_FIELD = 4000;

export interface HandoffSources extends ChecklistState {
  /** The resume block of the chosen checkpoint (its decisions, next action). */
  block: ResumeBlock | null;
  /** Decisions waiting on the user across every open checkpoint. */
  openDecisions: string[];
}

function clip(text: string, max = MAX_FIELD): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}

/** The checkpoint asked for, else the most urgent open one, else the one updated last. */
function chooseCheckpoint(all: Checkpoint[], skill: string | undefined): Checkpoint | null {
  if (skill !== undefined) return all.find((c) => c.skill === skill) ?? null;
  const mostUrgent = openCheckpointsByUrgency(all)[0];
  if (mostUrgent !== undefined) return mostUrgent;
  return [...all].sort((a, b) => compareText(b.updated_at, a.updated_at))[0] ?? null;
}

export async function gatherHandoffSources(layout: WorkspaceLayout, clock: Clock, skill: string | undefined): Promise<HandoffSources> {
  const { policy } = await loadPolicySnapshot(layout);
  const scan = await scanFolder({ layout, clock });
  const all = scan.files.flatMap((f) => (f.checkpoint ? [f.checkpoint] : []));
  const chosen = chooseCheckpoint(all, skill);
  const block = chosen ? buildResumeBlock(chosen, clock.now(), policy.checkpoints.stale_days) : null;
  const openDecisions = all
    .filter(isOpenCheckpoint)
    .map((c) => buildResumeBlock(c, clock.now(), policy.checkpoints.stale_days))
    .flatMap((b) => b.decisions_needed.map((d) => clip(`${b.skill}/${d.id}: ${d.description}`, 1000)))
    .slice(0, MAX_DECISIONS);
  return {
    state: readStateSummary(layout),
    checkpoint: block ? { skill: block.skill, status: block.status, next_action: block.next_action?.text ?? null, progress_summary: block.progress_summary } : null,
    missingSkill: skill !== undefined && chosen === null ? skill : null,
    block,
    openDecisions,
  };
}

/** The newest run (by its last entry) and its last entry's sequence and result. */
async function lastRun(layout: WorkspaceLayout): Promise<HandoffNote["last_run"]> {
  const run = (await listRuns(layout)).find((r) => r.problem === null && r.entries > 0);
  if (!run) return null;
  let last: { sequence?: unknown; result?: unknown } = {};
  try {
    last = JSON.parse(readJsonlTail(layout.timelineFile(run.run_id))?.lines[0] ?? "{}") as typeof last;
  } catch {
    // an unreadable last line: the run is named without it
  }
  return {
    run_id: run.run_id,
    last_sequence: typeof last.sequence === "number" && Number.isInteger(last.sequence) ? last.sequence : -1,
    last_result: typeof last.result === "string" ? last.result.slice(0, 32) : null,
  };
}

/** Each chain's entry count and head hash, from its last complete line (not verified here: `aop evidence verify` does that). */
function evidenceHeads(layout: WorkspaceLayout): HandoffNote["evidence_heads"] {
  const heads: HandoffNote["evidence_heads"] = {};
  for (const featureId of chainedFeatureIds(layout).slice(0, 1000)) {
    try {
      const line = readJsonlTail(layout.chainFile(featureId))?.lines[0];
      const entry = line ? (JSON.parse(line) as { sequence?: unknown; chain_hash?: unknown }) : null;
      if (entry && typeof entry.sequence === "number" && typeof entry.chain_hash === "string" && /^(sha256:)?[0-9a-f]{64}$/.test(entry.chain_hash)) {
        heads[featureId] = { length: entry.sequence + 1, head: entry.chain_hash };
      }
    } catch {
      // a chain the store refuses has no head to hand on; `aop evidence verify` names its problem
    }
  }
  return heads;
}


export async function buildHandoffNote(
  layout: WorkspaceLayout,
  sources: HandoffSources,
  identity: { workspace_id: string; display_name: string; created_at: string },
  message: string | null,
  failures: string[],
): Promise<HandoffNote> {
  const next = sources.state?.next_action || sources.block?.next_action?.text || "";
  return {
    version: 1,
    created_at: identity.created_at,
    workspace_id: identity.workspace_id,
    display_name: clip(identity.display_name, 200),
    objective: clip(sources.state?.objective ?? ""),
    next_action: clip(next),
    open_decisions: sources.openDecisions,
    last_run: await lastRun(layout),
    evidence_heads: evidenceHeads(layout),
    checkpoint: sources.block ? { skill: sources.block.skill, summary: clip(sources.block.progress_summary) } : null,
    message: message === null ? null : clip(message),
    checklist_failures: failures.slice(0, 50).map((f) => clip(f, 1000)),
  };
}
