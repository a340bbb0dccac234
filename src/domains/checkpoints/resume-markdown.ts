// The resume block as Markdown: what a new session pastes into its context before doing anything.
import { actionText } from "./checkpoint-types.js";
import type { ResumeBlock } from "./resume-block.js";
import { formatAge } from "../../core/time-format.js";

function bullets(items: readonly string[]): string[] {
  return items.map((i) => `- ${i}`);
}

export function renderResumeMarkdown(block: ResumeBlock): string {
  const lines: string[] = [];
  lines.push(`## Resume: ${block.skill} — ${block.project}`, "");
  lines.push(`- **Project:** ${block.project} (\`${block.project_dir}\`)`);
  lines.push(`- **Last update:** ${formatAge(block.age_ms)} (${block.updated_at})${block.stale ? ` — **stale** (over ${block.stale_threshold_days} days for ${block.status})` : ""}`);
  lines.push(`- **Status:** ${block.status} — phase \`${block.phase}\`, step \`${block.step}\``);
  lines.push(`- **Progress:** ${block.progress.total === 0 ? "no progress table" : `${block.progress.done}/${block.progress.total} complete`}`);
  lines.push("", `**Summary.** ${block.progress_summary}`);
  if (block.decisions_needed.length > 0) {
    lines.push("", "### Decisions needed from the user");
    for (const b of block.decisions_needed) lines.push(`- **${b.id}**: ${b.description}${b.proposed_resolution ? ` (proposed: ${b.proposed_resolution})` : ""}`);
  }
  if (block.other_blockers.length > 0) {
    lines.push("", "### Other blockers");
    for (const b of block.other_blockers) lines.push(`- **${b.id}** (${b.needs}): ${b.description}${b.proposed_resolution ? ` (proposed: ${b.proposed_resolution})` : ""}`);
  }
  lines.push("", "### Next action");
  if (block.next_action === null) lines.push("None queued.");
  else {
    lines.push(block.next_action.text);
    if (block.next_action.done_when) lines.push(`Done when \`${block.next_action.done_when}\` exits 0.`);
    if (block.queued_actions > 1) lines.push(`(${block.queued_actions - 1} more queued.)`);
  }
  if (block.key_decisions.length > 0) lines.push("", "### Key decisions", ...bullets(block.key_decisions));
  if (block.user_preferences.length > 0) lines.push("", "### User preferences", ...bullets(block.user_preferences));
  if (block.recently_done.length > 0) lines.push("", "### Recently done", ...bullets(block.recently_done.map((d) => `${actionText(d.action)} (${d.at})`)));
  lines.push("", "### What to do");
  lines.push(block.decision === "continue" ? `**Continue automatically** — ${block.reason}.` : `**Ask the user first** — ${block.reason}.`);
  return lines.join("\n");
}
