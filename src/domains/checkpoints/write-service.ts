// Write-side checkpoint services shared by the CLI and the tool handlers: update, done, reset, init.
// Every write is read → change → validate → atomic write, under the file's lock; an invalid result is
// never written, so a refused change leaves the file byte-identical.
import fs from "node:fs";
import path from "node:path";
import { isoUtc } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import { ensureDir, writeFileAtomic } from "../../store/atomic-write.js";
import { acquireLock } from "../../store/lock.js";
import { moveToHistory } from "./checkpoint-history.js";
import { readCheckpointFile } from "./checkpoint-store.js";
import { checkLoadedFile } from "./checkpoint-scan.js";
import { actionText, CHECKPOINT_SUFFIX, FILE_MAX_BYTES, PROTOCOL_1_1_FIELDS, PROTOCOL_VERSION, RECENTLY_DONE_CAP, type Checkpoint, type CheckpointProblem, type DoneEntry, type NextAction } from "./checkpoint-types.js";
import { isPlainObject } from "../../core/merge.js";
import { invalidCheckpointError, type CheckpointEnv } from "./read-service.js";
import { checkDocument, loadCheckpointSchema, loadCheckpointValidator } from "./validate-checkpoint.js";

export type Mutation = (document: Record<string, unknown>) => Record<string, unknown>;

export interface WriteResult {
  skill: string;
  file: string;
  created: boolean;
  /** What the services read (checkpoint-view.ts). */
  checkpoint: Checkpoint;
  /** The document as written. */
  document: Record<string, unknown>;
  warnings: CheckpointProblem[];
}

/**
 * A new file's starting point; `update` must still supply what the protocol requires (a next action).
 * @public The build's checkpoint sample (scripts/bundle-samples.mjs) imports it from dist/.
 */
export function scaffoldCheckpoint(skill: string, projectDir: string, nowIso: string): Record<string, unknown> {
  return {
    protocol_version: PROTOCOL_VERSION,
    skill,
    project: path.basename(projectDir),
    project_dir: projectDir,
    created_at: nowIso,
    updated_at: nowIso,
    phase: "start",
    step: "start",
    status: "in_progress",
    progress_summary: `Checkpoint for ${skill} created; nothing recorded yet.`,
    progress_table: [],
    context_primer: { key_decisions: [], generated_files: [], user_preferences: [] },
    blockers: [],
    next_actions: [],
  };
}

/** Read → mutate → restamp → validate → write, under the per-file lock. */
async function mutateCheckpoint(env: CheckpointEnv, skill: string, mutate: Mutation, options: { scaffold: boolean; doing: string; hint?: string }): Promise<WriteResult> {
  const file = env.layout.checkpointFile(skill);
  const fileName = path.basename(file);
  const schema = await loadCheckpointSchema();
  const validate = await loadCheckpointValidator();
  // The lock file needs the folder; a refused change must not leave a new, empty one behind.
  const folderExisted = fs.existsSync(env.layout.checkpointsDir);
  let written = false;
  const release = await acquireLock(env.layout.lockFor(file));
  try {
    const now = env.clock.now();
    const loaded = readCheckpointFile(env.layout, skill);
    let current: Record<string, unknown>;
    let created = false;
    if (!loaded.ok && loaded.missing) {
      if (!options.scaffold) throw new AopError("checkpoint_not_found", `no checkpoint for skill '${skill}'`, { details: { skill } });
      current = scaffoldCheckpoint(skill, env.layout.checkpointsProjectDir, isoUtc(now));
      created = true;
    } else {
      const checked = checkLoadedFile(loaded, validate, now);
      if (!isPlainObject(checked.document)) throw invalidCheckpointError(checked, `cannot ${options.doing}`, "fix or reset the file by hand; update only edits a file that holds a JSON object");
      current = checked.document;
    }
    const next = mutate(current);
    next.updated_at = isoUtc(now);
    // A file keeps the version it has; a new one says 1.0 unless it holds a 1.1 field, so a reader of 1.0 only still accepts it.
    if (created && next.protocol_version === PROTOCOL_VERSION && PROTOCOL_1_1_FIELDS.some((field) => next[field] !== undefined)) next.protocol_version = "1.1";
    const text = JSON.stringify(next, null, 2) + "\n";
    const bytes = Buffer.byteLength(text);
    // Every checkpoint reader refuses a file over the limit: never write one.
    if (bytes > FILE_MAX_BYTES) {
      throw new AopError("payload_too_large", `refused to ${options.doing}: the result would be ${bytes} bytes, over the ${FILE_MAX_BYTES / (1024 * 1024)} MB limit every checkpoint command enforces; nothing was written`, {
        details: { skill, file: fileName, bytes, limit: FILE_MAX_BYTES },
        hint: "keep a checkpoint small (under 32 KB): trim progress_summary, recently_done or skill_state, and keep large data in files the checkpoint names",
      });
    }
    const outcome = checkDocument(schema, next, { fileName, sizeBytes: bytes, now });
    if (outcome.errors.length > 0) {
      throw invalidCheckpointError({ file: fileName, errors: outcome.errors }, `refused to ${options.doing}: the result would be invalid`, options.hint ?? "nothing was written; change the values so the result validates");
    }
    writeFileAtomic(file, text);
    written = true;
    return { skill, file: fileName, created, checkpoint: outcome.checkpoint!, document: next, warnings: outcome.warnings };
  } finally {
    release();
    if (!folderExisted && !written) removeEmptyDir(env.layout.checkpointsDir);
  }
}

function removeEmptyDir(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty (another writer's file) or already gone
  }
}

export function updateCheckpoint(env: CheckpointEnv, skill: string, mutate: Mutation): Promise<WriteResult> {
  return mutateCheckpoint(env, skill, mutate, { scaffold: true, doing: `update ${skill}` });
}

export interface DoneOutcome extends WriteResult {
  done: DoneEntry;
  next_action: NextAction | null;
  remaining: number;
}

/**
 * Pops `next_actions[0]` onto the front of `recently_done` (newest first, at most 10), as `{at, action}`
 * with the action's text, as the reference CLI stores it; entries holding an action object (older aop
 * files) stay valid and are read as before.
 */
function popNextAction(document: Record<string, unknown>, at: string, expected?: NextAction, status?: Checkpoint["status"]): { document: Record<string, unknown>; done: DoneEntry } {
  const actions = Array.isArray(document.next_actions) ? [...(document.next_actions as NextAction[])] : [];
  const first = actions.shift();
  if (first === undefined) throw new AopError("checkpoint_queue_empty", `${String(document.skill)} has no next action to mark done`, { hint: "add one with `checkpoint update <skill> --next_actions+=<text>`" });
  if (expected !== undefined && JSON.stringify(first) !== JSON.stringify(expected)) {
    throw new AopError("version_conflict", "next_actions[0] changed while its done_when ran: nothing was marked done", { hint: "run done again" });
  }
  const done: DoneEntry = { at, action: actionText(first) };
  const previous = Array.isArray(document.recently_done) ? (document.recently_done as DoneEntry[]) : [];
  const next: Record<string, unknown> = { ...document, next_actions: actions, recently_done: [done, ...previous].slice(0, RECENTLY_DONE_CAP) };
  if (status) next.status = status;
  return { document: next, done };
}

export async function markDone(env: CheckpointEnv, skill: string, options: { expected?: NextAction; status?: Checkpoint["status"] } = {}): Promise<DoneOutcome> {
  let done: DoneEntry | undefined;
  const result = await mutateCheckpoint(
    env,
    skill,
    (document) => {
      const popped = popNextAction(document, isoUtc(env.clock.now()), options.expected, options.status);
      done = popped.done;
      return popped.document;
    },
    { scaffold: false, doing: `mark ${skill}'s next action done`, hint: `that was the last next action: pass a new status (e.g. --status complete) or queue the following action first with \`checkpoint update ${skill} --next_actions+=<text>\`` },
  );
  const remaining = result.checkpoint.next_actions ?? [];
  return { ...result, done: done!, next_action: remaining[0] ?? null, remaining: remaining.length };
}

export async function resetCheckpoint(env: CheckpointEnv, skill: string): Promise<{ skill: string; moved_to: string }> {
  const file = env.layout.checkpointFile(skill);
  const release = await acquireLock(env.layout.lockFor(file));
  try {
    if (!fs.existsSync(file) && !isSymlink(file)) throw new AopError("checkpoint_not_found", `no checkpoint for skill '${skill}' to reset`, { details: { skill } });
    const target = moveToHistory(env.layout, skill, env.clock.now());
    return { skill, moved_to: env.layout.relative(target) };
  } finally {
    release();
  }
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Lock and temp files are machine-local: the folder's own .gitignore keeps them out of commits. */
const CHECKPOINTS_GITIGNORE = `# written by \`checkpoint init\`: lock and temp files are machine-local\n*${CHECKPOINT_SUFFIX}.lock\n*.lock.reclaim\n.*.tmp-*\n`;

export function initCheckpoints(env: CheckpointEnv): { dir: string; created: string[]; kept: string[] } {
  const created: string[] = [];
  const kept: string[] = [];
  const dir = env.layout.checkpointsDir;
  const gitignore = env.layout.checkpointsGitignore;
  (fs.existsSync(dir) ? kept : created).push(env.layout.relative(dir) + "/");
  ensureDir(dir);
  if (fs.existsSync(gitignore)) kept.push(env.layout.relative(gitignore));
  else {
    writeFileAtomic(gitignore, CHECKPOINTS_GITIGNORE);
    created.push(env.layout.relative(gitignore));
  }
  return { dir, created, kept };
}
