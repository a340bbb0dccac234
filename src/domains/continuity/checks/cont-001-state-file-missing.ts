// CONT_001: memory/CURRENT_STATE.md must exist and be readable — without it a new session cannot resume.
import type { DoctorCheck } from "../../doctor/index.js";
import { describeRefusal, refusalCode } from "../../../store/read-text-bounded.js";
import { currentState, STATE_FILE_REF } from "../workspace-state.js";

export const check: DoctorCheck = {
  id: "CONT_001_STATE_FILE_MISSING",
  severity: "critical",
  title: "memory/CURRENT_STATE.md exists",
  remediation:
    "Create memory/CURRENT_STATE.md from the memory-continuity template (sections Objective, Current Step, Key Decisions, Next Action, Blockers, Unsurfaced Results) and have the agent overwrite it at every checkpoint.",
  run(ctx) {
    const { file } = currentState(ctx);
    switch (file.status) {
      case "ok":
        return { findings: [], okMessage: `${STATE_FILE_REF} exists` };
      case "missing":
        return { findings: [{ message: `${STATE_FILE_REF} does not exist`, refs: [STATE_FILE_REF] }] };
      case "not_a_file":
      case "outside_workspace":
      case "too_large":
        return { findings: [{ message: `${STATE_FILE_REF} ${describeRefusal(file)} [${refusalCode(file)}]`, refs: [STATE_FILE_REF], remediation: `Remove whatever sits at ${STATE_FILE_REF} and create the state file there as a regular file.` }] };
      case "unreadable":
        return { findings: [{ message: `${STATE_FILE_REF} ${describeRefusal(file)} [${refusalCode(file)}]`, refs: [STATE_FILE_REF], remediation: `Make ${STATE_FILE_REF} readable by the user running the doctor and the agent.` }] };
    }
  },
};
