// The doctor's families, listed once: each domain owns its family (name, when it applies, its checks);
// the engine orders the checks by id, so adding a check never touches this file, and a family is
// added here once. `aop doctor --only`, the doctor.run schema and the hook's critical checks all
// read this list.
import type { DoctorFamily } from "../domains/doctor/index.js";
import { driftFamily } from "../domains/doctor/index.js";
import { continuityFamily } from "../domains/continuity/index.js";
import { checkpointFamily } from "../domains/checkpoints/index.js";

export const DOCTOR_FAMILIES: readonly DoctorFamily[] = [driftFamily, continuityFamily, checkpointFamily];

export function familyNames(): string[] {
  return DOCTOR_FAMILIES.map((f) => f.name);
}
