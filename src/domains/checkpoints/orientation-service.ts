// `next` and `resume`: which action comes first across skills, and the orientation block for one skill.
import { pickNext, type NextPick } from "./ranking.js";
import { invalidCheckpointError, readSkill, scanFolder, type CheckpointEnv } from "./read-service.js";
import { buildResumeBlock, type ResumeBlock } from "./resume-block.js";
import type { StaleDays } from "./staleness.js";

export interface NextResult {
  pick: NextPick | null;
  /** Files left out of the ranking because they have errors. */
  invalid: string[];
}

export async function nextAction(env: CheckpointEnv): Promise<NextResult> {
  const scan = await scanFolder(env);
  const valid = scan.files.flatMap((f) => (f.checkpoint ? [f.checkpoint] : []));
  return { pick: pickNext(valid), invalid: scan.files.filter((f) => !f.checkpoint).map((f) => f.file) };
}

export async function resumeSkill(env: CheckpointEnv, skill: string, staleDays: StaleDays): Promise<ResumeBlock> {
  const entry = await readSkill(env, skill);
  if (!entry.checkpoint) throw invalidCheckpointError(entry, `cannot resume ${skill}`, `fix the file first (\`checkpoint validate\` lists every problem), then resume`);
  return buildResumeBlock(entry.checkpoint, env.clock.now(), staleDays);
}
