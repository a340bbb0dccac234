// `next` and `resume`: which action comes first across skills, and the orientation block for one skill.
import { ticketsDoneInGit } from "./checkpoint-doctor.js";
import { doneTickets } from "./done-evidence.js";
import { evidenceSources } from "./doctor-rules.js";
import { rankCheckpoints, type NextPick, type RankInput } from "./ranking.js";
import type { CheckpointScan } from "./checkpoint-scan.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { invalidCheckpointError, readSkill, scanFolder, type CheckpointEnv } from "./read-service.js";
import { buildResumeBlock, type ResumeBlock } from "./resume-block.js";
import type { StaleDays } from "./staleness.js";

export interface NextResult {
  pick: NextPick | null;
  /** Files not ranked because they are not a JSON object (unreadable, not JSON, an array…). */
  unreadable: string[];
}

/**
 * The reference CLI's choice: every file that parses is ranked (with errors or not), and queued actions
 * naming finished work are skipped, by the evidence CKPT_006 reports (docs/checkpoints.md).
 */
export async function nextAction(env: CheckpointEnv): Promise<NextResult> {
  const { picks, unreadable } = rankScan(env.layout, await scanFolder(env));
  return { pick: picks[0] ?? null, unreadable };
}

/** Every file of a scan ranked as `next` ranks them (most urgent first), with the same evidence. */
export function rankScan(layout: WorkspaceLayout, scan: CheckpointScan): { picks: NextPick[]; unreadable: string[] } {
  const inputs: RankInput[] = [];
  const unreadable: string[] = [];
  for (const f of scan.files) {
    if (f.document !== null && typeof f.document === "object" && !Array.isArray(f.document)) inputs.push({ file: f.file, document: f.document as Record<string, unknown>, valid: f.errors.length === 0 });
    else unreadable.push(f.file);
  }
  const texts = inputs.flatMap(({ document }) => candidateTexts(document));
  const done = doneTickets(evidenceSources(scan.files), ticketsDoneInGit(layout, texts));
  return { picks: rankCheckpoints(inputs, done), unreadable };
}

/** Texts `next` may recommend: queued actions and blockers' proposed resolutions. */
function candidateTexts(document: Record<string, unknown>): string[] {
  const texts: string[] = [];
  for (const a of Array.isArray(document.next_actions) ? (document.next_actions as unknown[]) : []) {
    const text = typeof a === "string" ? a : a !== null && typeof a === "object" ? (a as Record<string, unknown>).text : undefined;
    if (typeof text === "string") texts.push(text);
  }
  for (const b of Array.isArray(document.blockers) ? document.blockers : []) {
    const proposed = b && typeof b === "object" ? (b as Record<string, unknown>).proposed_resolution : undefined;
    if (typeof proposed === "string") texts.push(proposed);
  }
  return texts;
}

export async function resumeSkill(env: CheckpointEnv, skill: string, staleDays: StaleDays): Promise<ResumeBlock> {
  const entry = await readSkill(env, skill);
  if (!entry.checkpoint) throw invalidCheckpointError(entry, `cannot resume ${skill}`, `fix the file first (\`checkpoint validate\` lists every problem), then resume`);
  return buildResumeBlock(entry.checkpoint, env.clock.now(), staleDays);
}
