// Every doctor check, by family. The engine orders them by id; adding a check never touches it.
import type { CheckFamily, DoctorCheck } from "./check-types.js";
import { driftChecks } from "./checks/drift-family.js";
import { continuityChecks } from "./checks/continuity-family.js";

export const FAMILIES: CheckFamily[] = ["drift", "continuity", "checkpoint"];

export function allChecks(): DoctorCheck[] {
  return [...driftChecks, ...continuityChecks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
