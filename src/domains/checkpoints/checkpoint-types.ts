// The shape of a Checkpoint Protocol 1.0 / 1.1 file (schemas/checkpoint/checkpoint.schema.json is the
// authority) and the problem/report types shared by the validator, the services, the CLI and the tools.
import { READ_LIMITS } from "../../store/read-limits.js";

/** The version a new file is stamped with, unless it carries a 1.1 field (docs/checkpoints.md). */
export const PROTOCOL_VERSION = "1.0";
type ProtocolVersion = "1.0" | "1.1";
/** The optional fields on-disk version 1.1 added. */
export const PROTOCOL_1_1_FIELDS = ["cost", "eval_scores", "telemetry_handle"] as const;
export const CHECKPOINT_SUFFIX = ".checkpoint.json";

export const CHECKPOINT_STATUSES = ["in_progress", "blocked", "complete", "failed"] as const;
type CheckpointStatus = (typeof CHECKPOINT_STATUSES)[number];

type RowStatus = "complete" | "in_progress" | "not_started" | "blocked" | "failed";

type BlockerNeed = "user_decision" | "code_fix" | "external_dep";

export type NextAction = string | { text: string; done_when?: string };

export interface ProgressRow {
  id: string;
  label: string;
  status: RowStatus;
}

export interface Blocker {
  id: string;
  description: string;
  blocking?: string | string[];
  needs?: BlockerNeed;
  proposed_resolution?: string;
}

export interface DoneEntry {
  at: string;
  action: NextAction;
}

export interface PmRef {
  provider: string;
  id: string;
  url?: string;
  role?: "source" | "child" | "deploy" | "incident" | "linked";
  created_by_skill?: string;
  first_seen_at?: string;
}

export interface ContextPrimer {
  key_decisions?: string[];
  generated_files?: string[];
  user_preferences?: string[];
}

/** 1.1: spend attribution and a budget ceiling (other keys are the writer's own). */
interface Cost {
  total_usd?: number;
  budget_usd?: number;
  by_phase?: Record<string, number>;
  by_model?: Record<string, number>;
  [other: string]: unknown;
}

/** 1.1: one evaluation against a rubric; `score` is relative to `max` when given. */
interface EvalScore {
  rubric: string;
  score: number;
  max?: number;
  at?: string;
  dimensions?: Record<string, number>;
  [other: string]: unknown;
}

/** 1.1: an opt-in local metering link: a handle, or `{enabled?, id?, sink?, since?}`. */
type TelemetryHandle = string | { enabled?: boolean; id?: string; sink?: string; since?: string; [other: string]: unknown };

/**
 * A checkpoint as the services read it: a valid file, with the values the protocol leaves untyped
 * made text (checkpoint-view.ts). The document on disk is never rewritten to this shape.
 */
export interface Checkpoint {
  protocol_version: ProtocolVersion;
  skill: string;
  project: string;
  project_dir: string;
  created_at: string;
  updated_at: string;
  phase: string;
  step: string;
  status: CheckpointStatus;
  progress_summary: string;
  progress_table?: ProgressRow[];
  context_primer?: ContextPrimer;
  blockers?: Blocker[];
  next_actions?: NextAction[];
  /** Filled by `done`: newest first, at most RECENTLY_DONE_CAP entries. */
  recently_done?: DoneEntry[];
  /** Private to its skill: never read by other skills, nor by us beyond validation. */
  skill_state?: Record<string, unknown>;
  pm_refs?: PmRef[];
  cost?: Cost;
  eval_scores?: EvalScore[];
  telemetry_handle?: TelemetryHandle | null;
}

/** One finding of the validator: a dotted JSON path ("" for the whole file) and what to fix. */
export interface CheckpointProblem {
  path: string;
  message: string;
}

/** The validation result for one file, as printed by `validate --json`. */
export interface FileReport {
  /** File name inside the checkpoints folder, e.g. `architect.checkpoint.json`. */
  file: string;
  /** The skill the file declares, else the one its name implies. */
  skill: string;
  /** Fail `validate` (the reference CLI's errors). */
  errors: CheckpointProblem[];
  /** Fail only `validate --strict` (the reference CLI's warnings). */
  warnings: CheckpointProblem[];
  /** Advice the reference does not give (unknown keys, untyped values…): never fails validate. */
  hints: CheckpointProblem[];
}

/** A file that was read and validated; `checkpoint` is set only when the file has no errors. */
export interface CheckedCheckpoint extends FileReport {
  /** Absolute path. */
  path: string;
  /** The parsed JSON whatever its shape; undefined when the file could not be read or parsed. */
  document: unknown;
  checkpoint: Checkpoint | null;
}

export const RECENTLY_DONE_CAP = 10;
export const SUMMARY_WARN_CHARS = 1200;
export const FILE_WARN_BYTES = 32 * 1024;
/** Files above this are refused unread: a checkpoint is a page of orientation, not a data store. */
export const FILE_MAX_BYTES = READ_LIMITS.checkpoint;
/** `updated_at` more than this ahead of the clock is a warning (the reference's grace)… */
export const FUTURE_WARN_MS = 24 * 60 * 60 * 1000;
/** …and more than this a hint (clock skew between machines is tolerated). */
export const FUTURE_HINT_MS = 5 * 60 * 1000;

export function actionText(action: NextAction): string {
  return typeof action === "string" ? action : action.text;
}

export function actionDoneWhen(action: NextAction): string | undefined {
  return typeof action === "string" ? undefined : action.done_when;
}

export function skillFromFileName(fileName: string): string {
  return fileName.endsWith(CHECKPOINT_SUFFIX) ? fileName.slice(0, -CHECKPOINT_SUFFIX.length) : fileName;
}
