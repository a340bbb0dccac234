// The results of the checkpoint tools, built in one place: the tool handlers return them, and the
// CLI's read-only commands print the same shapes with --json (docs/checkpoints.md, "One route, one shape"). Pure.
import { isPlainObject } from "../../core/merge.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import type { CheckpointScan } from "./checkpoint-scan.js";
import type { CheckedCheckpoint } from "./checkpoint-types.js";
import type { DoneReport } from "./done-service.js";
import type { NextPick } from "./ranking.js";
import { listEntries, visibleTo } from "./read-service.js";
import type { WriteResult } from "./write-service.js";

/** checkpoint.list */
export function listView(layout: WorkspaceLayout, scan: CheckpointScan) {
  return { dir: layout.relative(scan.dir), exists: scan.exists, checkpoints: listEntries(scan) };
}

/** checkpoint.get: the file, its problems, and the document as `asSkill` may see it (skill_state is the skill's own). */
export function checkpointView(entry: CheckedCheckpoint, asSkill?: string | null) {
  const { document, skillStateOmitted } = visibleTo(entry.document, entry.skill, asSkill);
  return { skill: entry.skill, file: entry.file, valid: entry.errors.length === 0, errors: entry.errors, warnings: entry.warnings, hints: entry.hints, skill_state_omitted: skillStateOmitted, checkpoint: isPlainObject(document) ? document : null };
}

/** checkpoint.next */
export function nextView(pick: NextPick | null) {
  return pick ?? { skill: null, status: null, why: "no checkpoints", action: null };
}

/** checkpoint.update */
export function updateView(result: WriteResult, asSkill?: string) {
  // The written document (unknown keys kept), without skill_state unless asSkill is its skill: an object either way.
  const checkpoint = visibleTo(result.document, result.skill, asSkill).document as Record<string, unknown>;
  return { skill: result.skill, file: result.file, created: result.created, updated_at: result.checkpoint.updated_at, warnings: result.warnings, checkpoint };
}

/** checkpoint.done */
export function doneView(outcome: DoneReport) {
  const run = outcome.verify;
  const verify = run ? { command: run.command, exit_code: run.exit_code, timed_out: run.timed_out, duration_ms: run.duration_ms, output: run.output } : null;
  return { skill: outcome.skill, done: outcome.done, next_action: outcome.next_action, remaining: outcome.remaining, status: outcome.checkpoint.status, warnings: outcome.warnings, verify };
}
