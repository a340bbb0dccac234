// The checkpoints domain's public surface: Checkpoint Protocol services, the checkpoint.* tools and the CKPT_* checks.
// Other domains, the composition root and the adapters import only from here.
export { parseAssignments, toToolAssignment } from "./assignments.js";
export { actionText, type CheckedCheckpoint, type Checkpoint, CHECKPOINT_STATUSES, type CheckpointProblem } from "./checkpoint-types.js";
export { checkpointFamily } from "./checks/checkpoint-family.js";
export { nextAction, rankScan, resumeSkill } from "./orientation-service.js";
export { rankCheckpoints } from "./ranking.js";
export { isOpenCheckpoint, openCheckpointsByUrgency } from "./open-checkpoints.js";
export { readSkill, scanFolder, validateReport } from "./read-service.js";
export { buildResumeBlock, type ResumeBlock } from "./resume-block.js";
export { renderResumeMarkdown } from "./resume-markdown.js";
export { staleness, type StaleDays } from "./staleness.js";
export type { DoneWhenOutput } from "./tools.js";
export { loadCheckpointValidator } from "./validate-checkpoint.js";
export { checkpointView, listView, nextView } from "./views.js";
export { pickNext } from "./ranking.js";
export type { FileReport } from "./checkpoint-types.js";
// The checkpoint doctor runs on the doctor engine, which loads every family's checks: it loads on
// first use, so that a command that only reads or writes checkpoints (`checkpoint done`) does not.
import type { runCheckpointDoctor as RunCheckpointDoctor } from "./checks/checkpoint-doctor-run.js";
export const runCheckpointDoctor: typeof RunCheckpointDoctor = async (...args) => (await import("./checks/checkpoint-doctor-run.js")).runCheckpointDoctor(...args);
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
