// CONT_006: the newest memory/session_archive/*.md having another objective than CURRENT_STATE.md
// means the task changed since that snapshot — expected on a task switch, worth a look otherwise.
import type { DoctorCheck } from "../../doctor/index.js";
import { extractObjective, objectivesDiffer, quoteText } from "../objective.js";
import { newestArchive, stateDocument, STATE_FILE_REF } from "../workspace-state.js";

export const check: DoctorCheck = {
  id: "CONT_006_ARCHIVE_OBJECTIVE_CHANGED",
  severity: "info",
  title: "Objective matches the newest session archive",
  remediation:
    "If the task really switched, nothing to do; otherwise restore the objective from the newest file in memory/session_archive/ into memory/CURRENT_STATE.md.",
  run(ctx) {
    const doc = stateDocument(ctx);
    const current = doc ? extractObjective(doc) : undefined;
    if (current === undefined) return { findings: [] };
    const archive = newestArchive(ctx);
    if (!archive) return { findings: [], okMessage: "No session archives yet (first session?)" };
    const ref = `memory/session_archive/${archive.name}`;
    if (archive.objective === undefined) return { findings: [], okMessage: `Newest archive ${archive.name} has no objective to compare with` };
    if (!objectivesDiffer(current, archive.objective)) return { findings: [], okMessage: `Objective unchanged since the newest archive (${archive.name})` };
    return {
      findings: [{ message: `Archive objective differs from current objective (task switch?): ${archive.name} had ${quoteText(archive.objective)}`, refs: [STATE_FILE_REF, ref] }],
    };
  },
};
