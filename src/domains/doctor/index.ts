// The doctor domain's public surface: the check contract, the engine, reports, the doctor.run tool and the DRIFT_* checks.
// Other domains, the composition root and the adapters import only from here.
export { type CheckFamily, type CheckResult, createDoctorContext, type DoctorCheck, type DoctorContext, type Finding, type FindingDraft, SEVERITY_RANK, toFinding } from "./check-types.js";
export { runChecks } from "./engine.js";
export { doctorExitCode, type DoctorReport, summaryLine, worstFirst } from "./report.js";
export { driftChecks } from "./checks/drift-family.js";
import type { DoctorToolDeps } from "./tools.js";
export type { DoctorToolDeps };
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async (deps: DoctorToolDeps) => (await import("./tools.js")).doctorTools(deps);
