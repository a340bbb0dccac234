// CONT_002: CURRENT_STATE.md must have been updated after the newest session transcript (or, with no
// transcript found, recently): a state file older than the last session misleads the next one.
import type { DoctorCheck, FindingDraft } from "../../doctor/index.js";
import { formatAge } from "../../../core/time-format.js";
import { judgeStaleness } from "../staleness.js";
import { currentState, newestTranscript, STATE_FILE_REF } from "../workspace-state.js";

export const check: DoctorCheck = {
  id: "CONT_002_STATE_FILE_STALE",
  severity: "warning",
  title: "CURRENT_STATE.md is up to date with the last session",
  remediation:
    "Have the agent overwrite memory/CURRENT_STATE.md before a session ends (objective, step, next action as they are now); if that session's work is finished, say so in the file.",
  run(ctx) {
    const { file } = currentState(ctx);
    if (file.status !== "ok") return { findings: [] };
    const transcript = newestTranscript(ctx);
    const verdict = judgeStaleness({ stateMtimeMs: file.mtimeMs, transcriptMtimeMs: transcript?.mtimeMs, nowMs: ctx.clock.now() });
    const modified = `last modified ${formatAge(verdict.stateAgeMs)}`;
    switch (verdict.verdict) {
      case "stale": {
        const finding: FindingDraft = { message: `CURRENT_STATE.md is stale (${modified}, session ran ${formatAge(verdict.sessionAgeMs)})`, refs: [STATE_FILE_REF, transcript!.file] };
        return { findings: [finding] };
      }
      case "current":
        return { findings: [], okMessage: `CURRENT_STATE.md is up to date (${modified}, session ran ${formatAge(verdict.sessionAgeMs)})` };
      case "old":
        return {
          findings: [
            verdict.severity === "warning"
              ? { message: `CURRENT_STATE.md is stale (${modified}; no session transcript found to compare with)`, refs: [STATE_FILE_REF] }
              : { message: `CURRENT_STATE.md ${modified} (no session transcript found to compare with)`, severity: "info", refs: [STATE_FILE_REF] },
          ],
        };
      case "fresh":
        return { findings: [], okMessage: `CURRENT_STATE.md is fresh (${modified}; no session transcript found)` };
    }
  },
};
