// Read-side checkpoint services shared by the CLI and the tool handlers: list, get, validate, next, resume.
// One implementation each; callers only format.
import type { Clock } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { checkOne, scanCheckpoints, type CheckpointScan } from "./checkpoint-scan.js";
import type { CheckedCheckpoint, FileReport } from "./checkpoint-types.js";
import { loadCheckpointValidator } from "./validate-checkpoint.js";

export interface CheckpointEnv {
  layout: WorkspaceLayout;
  clock: Clock;
}

export interface ListEntry {
  skill: string;
  file: string;
  valid: boolean;
  errors: number;
  warnings: number;
  status: string | null;
  phase: string | null;
  step: string | null;
  updated_at: string | null;
}

export interface ValidateReport {
  ok: boolean;
  files: FileReport[];
}

export async function scanFolder(env: CheckpointEnv, options: { keepDocuments?: boolean } = {}): Promise<CheckpointScan> {
  return scanCheckpoints(env.layout, await loadCheckpointValidator(), env.clock.now(), options);
}

function toFileReport(entry: CheckedCheckpoint): FileReport {
  return { file: entry.file, skill: entry.skill, errors: entry.errors, warnings: entry.warnings, hints: entry.hints };
}

/** `ok` is false on any error, and on any warning when `strict`. */
export function validateReport(scan: CheckpointScan, strict: boolean): ValidateReport {
  const ok = scan.files.every((f) => f.errors.length === 0 && (!strict || f.warnings.length === 0));
  return { ok, files: scan.files.map(toFileReport) };
}

function field(document: unknown, key: string): string | null {
  if (document === null || typeof document !== "object") return null;
  const value = (document as Record<string, unknown>)[key];
  return typeof value === "string" ? value : null;
}

export function listEntries(scan: CheckpointScan): ListEntry[] {
  return scan.files.map((f) => ({
    skill: f.skill,
    file: f.file,
    valid: f.errors.length === 0,
    errors: f.errors.length,
    warnings: f.warnings.length,
    status: field(f.document, "status"),
    phase: field(f.document, "phase"),
    step: field(f.document, "step"),
    updated_at: field(f.document, "updated_at"),
  }));
}

async function knownSkillsHint(env: CheckpointEnv): Promise<string> {
  const scan = await scanFolder(env);
  if (!scan.exists) return `no checkpoints folder at ${env.layout.checkpointsDir} (run \`checkpoint init\`, or pass --dir)`;
  const skills = scan.files.map((f) => f.skill);
  return skills.length === 0 ? `${env.layout.checkpointsDir} holds no checkpoints yet` : `known skills: ${skills.join(", ")}`;
}

/** One skill's file, validated; checkpoint_not_found when there is none. */
export async function readSkill(env: CheckpointEnv, skill: string): Promise<CheckedCheckpoint> {
  const { missing, checked } = checkOne(env.layout, skill, await loadCheckpointValidator(), env.clock.now());
  if (missing) {
    throw new AopError("checkpoint_not_found", `no checkpoint for skill '${skill}' (${env.layout.relative(env.layout.checkpointFile(skill))})`, {
      details: { skill },
      hint: await knownSkillsHint(env),
    });
  }
  return checked;
}

export function invalidCheckpointError(entry: Pick<CheckedCheckpoint, "file" | "errors">, doing: string, hint?: string): AopError {
  const first = entry.errors[0]!;
  const more = entry.errors.length > 1 ? ` (and ${entry.errors.length - 1} more)` : "";
  return new AopError("checkpoint_invalid", `${doing}: ${entry.file} ${first.path === "" ? "" : first.path + " "}${first.message}${more}`, {
    details: { file: entry.file, problems: entry.errors },
    hint: hint ?? "run `checkpoint validate` to see every problem",
  });
}

/**
 * A document as another skill may see it: without `skill_state` unless `asSkill` is its own skill.
 * (A skill reads its siblings' header, progress, primer and blockers, never their private state.)
 */
export function visibleTo(document: unknown, skill: string, asSkill?: string | null): { document: unknown; skillStateOmitted: boolean } {
  if (asSkill === skill || document === null || typeof document !== "object" || Array.isArray(document) || !("skill_state" in document)) {
    return { document, skillStateOmitted: false };
  }
  const { skill_state: _private, ...rest } = document as Record<string, unknown>;
  return { document: rest, skillStateOmitted: true };
}
