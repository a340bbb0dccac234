// CONT_005: `Unsurfaced Results` must be empty or `None` — anything else is work the user has not seen yet.
import type { DoctorCheck } from "../../doctor/index.js";
import { sectionValue } from "../state-document.js";
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
    const value = sectionValue(section.body);
    if (value === "") return { findings: [], okMessage: "No unsurfaced results pending" };
    return { findings: [{ message: `Unsurfaced Results section is not empty — review needed: ${quoteText(value)}`, refs: [`${STATE_FILE_REF}:${section.line}`] }] };
  },
};
