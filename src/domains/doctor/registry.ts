// Every doctor check, by family. The engine orders them by id; adding a check never touches it.
import type { CheckFamily, DoctorCheck } from "./check-types.js";
import { driftChecks } from "./checks/drift-family.js";
import { continuityChecks } from "../continuity/checks/continuity-family.js";
import { checkpointChecks } from "../checkpoints/checks/checkpoint-family.js";

export const FAMILIES: CheckFamily[] = ["drift", "continuity", "checkpoint"];

export function allChecks(): DoctorCheck[] {
  return [...driftChecks, ...continuityChecks, ...checkpointChecks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
