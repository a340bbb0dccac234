// CONT_004: no section of CURRENT_STATE.md may still hold template placeholder text such as
// `[One sentence: ...]`, `[TODO]` or `<fill in>` (rule: src/continuity/placeholders.ts, docs/continuity.md).
import type { DoctorCheck, FindingDraft } from "../../doctor/index.js";
import { findPlaceholders } from "../placeholders.js";
import { REQUIRED_SECTIONS } from "../state-document.js";
import { stateDocument, STATE_FILE_REF } from "../workspace-state.js";

export const check: DoctorCheck = {
  id: "CONT_004_PLACEHOLDER_TEXT",
  severity: "info",
  title: "CURRENT_STATE.md sections are filled in",
  remediation: "Replace the template's bracketed hints with the real content, or with `None` where there is nothing to say.",
  run(ctx) {
    const doc = stateDocument(ctx);
    if (!doc) return { findings: [] };
    const findings: FindingDraft[] = [];
    for (const name of REQUIRED_SECTIONS) {
      const section = doc.sections.get(name);
      if (!section) continue;
      const found = findPlaceholders(section.body);
      if (found.length > 0) findings.push({ message: `Section '${name}' still contains placeholder text: ${found.join(", ")}`, refs: [`${STATE_FILE_REF}:${section.line}`] });
    }
    if (findings.length > 0) return { findings };
    return doc.sections.size > 0 ? { findings, okMessage: "No template placeholders left" } : { findings };
  },
};
