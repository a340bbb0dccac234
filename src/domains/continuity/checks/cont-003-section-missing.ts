// CONT_003: CURRENT_STATE.md must have the protocol's six sections, each a Markdown heading
// (any level, name case-insensitive, trailing colon allowed) — recovery reads them by name.
import type { DoctorCheck, FindingDraft } from "../../doctor/index.js";
import { currentState, MAX_STATE_BYTES, STATE_FILE_REF } from "../workspace-state.js";

export const check: DoctorCheck = {
  id: "CONT_003_SECTION_MISSING",
  severity: "warning",
  title: "CURRENT_STATE.md has the six sections",
  remediation:
    "Add the missing sections as headings (`## Objective`, `## Current Step`, `## Key Decisions`, `## Next Action`, `## Blockers`, `## Unsurfaced Results`); write `None` under a section that has nothing to say.",
  run(ctx) {
    const { file, doc } = currentState(ctx);
    if (file.status !== "ok") return { findings: [] };
    if (file.binary) {
      return {
        findings: [{ message: "CURRENT_STATE.md is not text (binary data): none of the six sections can be read", refs: [STATE_FILE_REF], remediation: "Rewrite memory/CURRENT_STATE.md as UTF-8 Markdown from the template." }],
      };
    }
    const findings: FindingDraft[] = (doc?.missing ?? []).map((name) => ({ message: `Missing section: ## ${name}`, refs: [STATE_FILE_REF] }));
    if (file.invalidUtf8) {
      // The reference doctor stops with a decoding error here; the sections are still read, the bad bytes as �.
      findings.push({ message: "CURRENT_STATE.md is not valid UTF-8: some bytes could not be decoded (read as �)", refs: [STATE_FILE_REF], remediation: "Save memory/CURRENT_STATE.md as UTF-8." });
    }
    if (file.truncated) {
      findings.push({
        message: `CURRENT_STATE.md is ${formatBytes(file.size)}; only the first ${formatBytes(MAX_STATE_BYTES)} were read`,
        severity: "info",
        refs: [STATE_FILE_REF],
        remediation: "The state file is a short snapshot that is overwritten, never appended to: move history to memory/session_archive/ and keep the six sections brief.",
      });
    }
    const allPresent = doc !== undefined && doc.missing.length === 0;
    return allPresent && !file.invalidUtf8 ? { findings, okMessage: "Template compliance: all sections present" } : { findings };
  },
};

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${Math.round(bytes / 1024)} KiB`;
}
