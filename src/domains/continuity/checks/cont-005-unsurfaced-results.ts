// CONT_005: `Unsurfaced Results` must be empty or `None` (DESIGN §7) — anything else, even `N/A`, a
// comment or a template hint, is worth a look: the reference doctor warns on it too (docs/continuity.md).
import type { DoctorCheck } from "../../doctor/index.js";
import { pendingResults, sectionValue } from "../state-document.js";
import { quoteText } from "../objective.js";
import { stateDocument, STATE_FILE_REF } from "../workspace-state.js";

export const check: DoctorCheck = {
  id: "CONT_005_UNSURFACED_RESULTS",
  severity: "warning",
  title: "No unsurfaced results pending",
  remediation: "Show the listed results to the user, then set `## Unsurfaced Results` to `None`.",
  run(ctx) {
    const section = stateDocument(ctx)?.sections.get("Unsurfaced Results");
    if (!section) return { findings: [] };
    const pending = pendingResults(section.body);
    if (pending === "") return { findings: [], okMessage: "No unsurfaced results pending" };
    const shown = sectionValue(section.body) || pending;
    return { findings: [{ message: `Unsurfaced Results section is not empty — review needed: ${quoteText(shown)}`, refs: [`${STATE_FILE_REF}:${section.line}`] }] };
  },
};
