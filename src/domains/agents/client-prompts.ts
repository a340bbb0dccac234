// Texts aop hands to agents besides the orientation: compaction instructions (PreCompact), and the
// MCP prompts `resume` and `handoff`. Built from the same sources as the orientation. Pure.
import { REQUIRED_SECTIONS } from "../continuity/index.js";
import type { ContextSources } from "./session-context.js";

const MAX_LINE = 240;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= MAX_LINE ? flat : flat.slice(0, MAX_LINE - 1) + "…";
}

/**
 * What the compaction summary must keep, or "" when there is nothing to keep. Context itself comes
 * back after compaction through SessionStart (source `compact`), so this stays short.
 */
export function compactionInstructions(sources: ContextSources): string {
  const keep: string[] = [];
  const s = sources.state;
  if (s?.objective) keep.push(`- the objective: ${clip(s.objective)}`);
  if (s?.current_step) keep.push(`- the current step: ${clip(s.current_step)}`);
  if (s?.next_action) keep.push(`- the next action: ${clip(s.next_action)}`);
  for (const c of sources.checkpoints) {
    for (const d of c.decisions_needed) keep.push(`- the open decision ${c.skill}/${d.id}: ${clip(d.description)}`);
    if (c.next_action) keep.push(`- checkpoint ${c.skill}: next — ${clip(c.next_action.text)}`);
  }
  if (s?.blockers && !/^none\.?$/i.test(s.blockers.trim())) keep.push(`- the blockers: ${clip(s.blockers)}`);
  if (keep.length === 0) return "";
  return ["Keep these in the summary word for word (from aop; the full orientation is restored after compaction):", ...keep.slice(0, 12)].join("\n");
}

/** The `handoff` prompt: what to write down before stopping so the next session resumes cleanly. */
export function handoffText(sources: ContextSources, skill: string | null): string {
  const lines = [
    "Before you stop, write down where the work stands so the next session (or another agent) can resume without asking:",
    "",
    `1. Update memory/CURRENT_STATE.md. It needs these sections, each current: ${REQUIRED_SECTIONS.join(", ")}.`,
  ];
  const s = sources.state;
  if (!s) lines.push("   The file does not exist yet: create it with those sections.");
  else {
    if (s.missing_sections.length > 0) lines.push(`   Missing now: ${s.missing_sections.join(", ")}.`);
    const current: [string, string][] = [["Objective", s.objective], ["Current Step", s.current_step], ["Next Action", s.next_action], ["Blockers", s.blockers], ["Unsurfaced Results", s.unsurfaced_results]];
    for (const [name, value] of current) lines.push(`   - ${name} now reads: ${value ? clip(value) : "(nothing)"}`);
  }
  const cp = skill ? sources.checkpoints.find((c) => c.skill === skill) : undefined;
  lines.push(
    "",
    `2. Update the checkpoint${skill ? ` of skill '${skill}'` : " of the skill you worked in"} with the checkpoint_update tool (an operation_id of your own, 8–256 characters): status, phase, step, progress_summary, next_actions in the order they should be done, and every blocker (needs: user_decision for a question only the user can answer). Mark a finished next action with checkpoint_done.`,
  );
  if (cp) lines.push(`   It is ${cp.status} at ${cp.phase}/${cp.step}; its next action is: ${cp.next_action ? clip(cp.next_action.text) : "(none queued)"}.`);
  else if (skill) lines.push(`   There is no open checkpoint for '${skill}' yet: checkpoint_update creates it.`);
  lines.push("", "3. Tell the user anything they have not seen yet (results, decisions you took, questions), in your last message.");
  return lines.join("\n");
}

/** The opening of the `resume` prompt. */
export function resumeIntro(skill: string | null): string {
  return [
    skill ? `Resume the '${skill}' skill in this project.` : "Resume the work in this project.",
    "Read the orientation first. If a decision waits on the user, ask it before anything else; otherwise continue with the next action, and keep memory/CURRENT_STATE.md and the checkpoint current as you go.",
  ].join(" ");
}
