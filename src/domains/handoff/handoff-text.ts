// A handoff note as the orientation the next session starts from: in full for `aop resume --from`, in a
// few lines for the SessionStart context. Pulled text is untrusted: every value is put on its own line(s)
// by us and the caller escapes it before a terminal (docs/handoff.md). Pure.
import { escapeHidden } from "../../core/escape-hidden.js";
import type { HandoffNote } from "./handoff-note.js";

/** One line of pulled text, its control characters shown as escapes (it reaches an agent's context as is). */
function clip(text: string, max: number): string {
  const flat = escapeHidden(text.replace(/\s+/g, " ").trim());
  return flat.length <= max ? flat : flat.slice(0, max - 1) + "…";
}

/** The full orientation `aop resume --from ORIGIN` prints. */
export function renderHandoff(origin: string, note: HandoffNote): string {
  const lines = [
    `Handoff from ${origin} (${note.display_name}, workspace ${note.workspace_id.slice(0, 8)}…), written ${note.created_at}`,
    "",
    `Objective:    ${note.objective || "(not stated)"}`,
    `Next action:  ${note.next_action || "(not stated)"}`,
  ];
  if (note.message) lines.push(`Message:      ${note.message}`);
  if (note.checkpoint) lines.push(`Checkpoint:   ${note.checkpoint.skill} — ${note.checkpoint.summary || "(no summary)"}`);
  if (note.open_decisions.length > 0) lines.push("", "Decisions waiting on the user (ask before anything else):", ...note.open_decisions.map((d) => `  - ${d}`));
  if (note.last_run) {
    const r = note.last_run;
    lines.push("", `Last run:     ${origin}/${r.run_id} up to sequence ${r.last_sequence}${r.last_result ? ` (${r.last_result})` : ""} — aop replay --run-id ${origin}/${r.run_id}`);
  }
  const heads = Object.entries(note.evidence_heads);
  if (heads.length > 0) {
    lines.push("", `Evidence heads (check them: aop evidence verify --origin ${origin} --all):`);
    for (const [feature, h] of heads) lines.push(`  - ${feature}: ${h.length} entr${h.length === 1 ? "y" : "ies"}, head ${h.head}`);
  }
  if (note.checklist_failures.length > 0) lines.push("", "Handed off with the checklist unmet (--force):", ...note.checklist_failures.map((f) => `  - ${f}`));
  return lines.join("\n");
}

/** The lines the SessionStart context opens with when a newer handoff was pulled. */
export function handoffContextLines(origin: string, note: HandoffNote): string[] {
  const lines = [`Handoff from ${origin} (${clip(note.created_at, 40)}) is newer than this workspace's own work — resume from it (details: \`aop resume --from ${origin}\`):`];
  lines.push(`- Next action: ${clip(note.next_action || "(not stated)", 240)}`);
  lines.push(`- Objective: ${clip(note.objective || "(not stated)", 200)}`);
  if (note.message) lines.push(`- Message: ${clip(note.message, 200)}`);
  for (const d of note.open_decisions.slice(0, 3)) lines.push(`- Open decision: ${clip(d, 160)}`);
  return lines;
}
