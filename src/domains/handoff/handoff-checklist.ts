// What `aop handoff` requires before it hands the work on: the handoff prompt's checklist (agents/
// client-prompts.ts, handoffText), checked instead of asked for. Each failure says what to fix. Pure.
import { REQUIRED_SECTIONS } from "../continuity/index.js";

export interface ChecklistState {
  /** null when memory/CURRENT_STATE.md does not exist. */
  state: { objective: string; current_step: string; next_action: string; missing_sections: string[] } | null;
  /** The checkpoint the note is built from, or null when the workspace has none. */
  checkpoint: { skill: string; status: string; next_action: string | null; progress_summary: string } | null;
  /** The skill asked for with --skill that has no checkpoint, if any. */
  missingSkill: string | null;
}

export interface ChecklistItem {
  item: string;
  ok: boolean;
  /** What to do when it is not. */
  fix: string | null;
}

export function handoffChecklist(s: ChecklistState): ChecklistItem[] {
  const items: ChecklistItem[] = [];
  const add = (item: string, fix: string | null) => items.push({ item, ok: fix === null, fix });
  const st = s.state;
  add("memory/CURRENT_STATE.md exists", st ? null : `create memory/CURRENT_STATE.md with the sections ${REQUIRED_SECTIONS.join(", ")}`);
  if (st) {
    add("memory/CURRENT_STATE.md has every required section", st.missing_sections.length === 0 ? null : `add the section${st.missing_sections.length === 1 ? "" : "s"} ${st.missing_sections.join(", ")} to memory/CURRENT_STATE.md`);
    add("memory/CURRENT_STATE.md states the objective", st.objective ? null : "write the objective under '## Objective' in memory/CURRENT_STATE.md");
    add("memory/CURRENT_STATE.md states the current step", st.current_step ? null : "write where the work stands under '## Current Step' in memory/CURRENT_STATE.md");
    add("memory/CURRENT_STATE.md states the next action", st.next_action ? null : "write what the next session does first under '## Next Action' in memory/CURRENT_STATE.md");
  }
  const cp = s.checkpoint;
  if (s.missingSkill !== null) add(`a checkpoint of skill '${s.missingSkill}' exists`, `there is no checkpoint of '${s.missingSkill}': create it with \`aop checkpoint update ${s.missingSkill} --status=in_progress --step=… --progress_summary=…\``);
  else add("a checkpoint records where the work stands", cp ? null : "update the checkpoint of the skill you worked in: `aop checkpoint update <skill> --status=in_progress --step=… --progress_summary=…` (or the checkpoint_update tool)");
  if (cp) {
    add(`checkpoint ${cp.skill} has a progress summary`, cp.progress_summary.trim() ? null : `give checkpoint ${cp.skill} a progress summary (\`aop checkpoint update ${cp.skill} --progress_summary=…\`)`);
    const finished = cp.status === "complete";
    add(`checkpoint ${cp.skill} queues its next action`, finished || cp.next_action ? null : `queue the next action in checkpoint ${cp.skill} (\`aop checkpoint update ${cp.skill} --next_actions+=…\`), or mark it complete`);
  }
  return items;
}
