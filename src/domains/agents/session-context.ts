// The orientation a new or compacted Claude Code session starts with: decisions waiting on the user,
// critical doctor findings, CURRENT_STATE.md and the in-progress checkpoints' next actions — most
// important first, within a byte budget. Pure: sources in, text out.
import type { ResumeBlock } from "../checkpoints/index.js";
import type { StateSummary } from "../continuity/index.js";
import type { Finding } from "../doctor/index.js";
import { handoffContextLines, type HandoffNote } from "../handoff/index.js";

const CONTEXT_BUDGET_BYTES = 2048;

export interface ContextSources {
  /** Resume blocks of in-progress, blocked or failed checkpoints, most urgent first. */
  checkpoints: ResumeBlock[];
  state: StateSummary | null;
  critical: Finding[];
  /** A handoff pulled from another workspace that is newer than this one's own work (docs/handoff.md). */
  handoff?: { origin: string; note: HandoffNote } | null;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1) + "…";
}

/** Lines in priority order; each group is kept whole or dropped, so nothing is cut mid-thought. */
function groups(sources: ContextSources): string[][] {
  const out: string[][] = [];
  // The work moved on elsewhere: where it stands there comes before anything this workspace remembers.
  if (sources.handoff) out.push(handoffContextLines(sources.handoff.origin, sources.handoff.note));
  const decisions = sources.checkpoints.flatMap((c) => c.decisions_needed.map((b) => `- ${c.skill}: ${b.id} — ${clip(b.description, 160)}${b.proposed_resolution ? ` (proposed: ${clip(b.proposed_resolution, 80)})` : ""}`));
  if (decisions.length > 0) out.push(["Decisions waiting on the user (ask before anything else):", ...decisions]);
  if (sources.critical.length > 0) out.push(["Critical workspace problems (aop doctor):", ...sources.critical.map((f) => `- ${f.id}: ${clip(f.message, 180)}`)]);
  const s = sources.state;
  if (s) {
    const lines = [
      ["Objective", s.objective],
      ["Current step", s.current_step],
      ["Next action", s.next_action],
      ["Blockers", s.blockers],
      ["Unsurfaced results", s.unsurfaced_results],
    ]
      .filter(([, v]) => v !== "")
      .map(([k, v]) => `- ${k}: ${clip(v!, 200)}`);
    if (lines.length > 0) out.push(["memory/CURRENT_STATE.md:", ...lines]);
  }
  for (const c of sources.checkpoints) {
    const next = c.next_action ? clip(c.next_action.text, 160) : "(no next action)";
    out.push([`Checkpoint ${c.skill} (${c.status}, ${c.phase}/${c.step}, ${c.progress.done}/${c.progress.total} done): next — ${next}; ${c.decision === "continue" ? "continue" : "ASK"}: ${clip(c.reason, 140)}`]);
  }
  return out;
}

export function renderSessionContext(sources: ContextSources, budgetBytes = CONTEXT_BUDGET_BYTES): string {
  const header = "aop-continuity orientation (resume from here; details: `aop checkpoint resume <skill>`, `aop doctor`).";
  let text = header;
  const all = groups(sources);
  let left = 0;
  for (const [i, group] of all.entries()) {
    const candidate = `${text}\n${group.join("\n")}`;
    if (Buffer.byteLength(candidate) + 80 > budgetBytes) {
      left = all.length - i;
      break;
    }
    text = candidate;
  }
  if (left > 0) text += `\n(${left} more item${left === 1 ? "" : "s"} left out for size: run \`aop checkpoint status\`)`;
  if (all.length === 0) text += "\nNothing in progress: no open checkpoints, no CURRENT_STATE.md, no critical findings.";
  return text;
}
