// The doctor domain's public surface: the check contract, the engine, reports, the doctor.run tool and the DRIFT_* checks.
// Other domains, the composition root and the adapters import only from here.
export { type CheckResult, createDoctorContext, type DoctorCheck, type DoctorContext, type DoctorFamily, type Finding, type FindingDraft, SEVERITY_RANK } from "./check-types.js";
export { type CheckOutcome, doctorContext, runChecks, runFamilyChecks, runRecordDoctor } from "./engine.js";
export { doctorExitCode, type DoctorReport, summarize, summaryLine, worstFirst } from "./report.js";
export { driftFamily } from "./checks/drift-family.js";
import type { DoctorToolDeps } from "./tools.js";
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async (deps: DoctorToolDeps) => (await import("./tools.js")).doctorTools(deps);
export { buildSchedule, SCHEDULE_EVERY, shellWord } from "./schedule.js";
