// Every doctor check, gathered from the domains that own them. The engine orders them by id, so
// adding a check never touches it; a family is added here once.
import type { CheckFamily, DoctorCheck } from "../domains/doctor/index.js";
import { driftChecks } from "../domains/doctor/index.js";
import { continuityChecks } from "../domains/continuity/index.js";
import { checkpointChecks } from "../domains/checkpoints/index.js";

export const FAMILIES: CheckFamily[] = ["drift", "continuity", "checkpoint"];

export function allChecks(): DoctorCheck[] {
  return [...driftChecks, ...continuityChecks, ...checkpointChecks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
