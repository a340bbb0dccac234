// The checkpoint doctor's judgement (docs/checkpoints.md `doctor`): validation results plus drift between the
// files and this machine. Pure: the facts about the file system and git arrive as data.
import path from "node:path";
import { actionText, type CheckedCheckpoint, type Checkpoint, type CheckpointProblem } from "./checkpoint-types.js";
import { formatAge } from "../../core/time-format.js";
import { staleness, type StaleDays } from "./staleness.js";
import { ticketRefs } from "./ticket-refs.js";
import { namedGeneratedPath } from "./generated-files.js";
import { describeDone, doneTickets, type DoneTickets } from "./done-evidence.js";

export const DOCTOR_KINDS = ["validation_error", "validation_warning", "project_dir_missing", "stale", "generated_file_missing", "done_ticket_still_next"] as const;
export type CheckpointDoctorKind = (typeof DOCTOR_KINDS)[number];

export interface CheckpointDoctorFinding {
  kind: CheckpointDoctorKind;
  /** `error` fails `checkpoint doctor`; `warning` fails it only with --fail-on-warnings. */
  level: "error" | "warning";
  skill: string;
  file: string;
  message: string;
  /** Absolute paths the finding is about (the checkpoint file first). */
  paths: string[];
}

/** Every file that parsed as a JSON object, as evidence of finished work (valid or not, as `next` reads them). */
export function evidenceSources(files: readonly Pick<CheckedCheckpoint, "skill" | "document">[]): { skill: string; document: Record<string, unknown> }[] {
  return files.flatMap((f) => (f.document !== null && typeof f.document === "object" && !Array.isArray(f.document) ? [{ skill: f.skill, document: f.document as Record<string, unknown> }] : []));
}

export interface DoctorFacts {
  /** The folder the checkpoints belong to (parent of `.checkpoints/`). */
  projectDir: string;
  /** Absolute paths (project_dir values, generated files) that exist on this machine. */
  existing: ReadonlySet<string>;
  /** The project folder is a git repository root: a project_dir from another clone is expected. */
  projectIsRepoRoot: boolean;
  /** Tickets recent commits report as finished. */
  doneInGit: ReadonlySet<string>;
}

function summarize(problems: CheckpointProblem[]): string {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return `${first.path === "" ? "" : first.path + " "}${first.message}${more}`;
}

/** Where a path named in a checkpoint lives on this machine. */
export function resolveNamedPath(projectDir: string, named: string): string {
  return path.resolve(projectDir, named);
}

function driftFindings(entry: CheckedCheckpoint, checkpoint: Checkpoint, facts: DoctorFacts, done: DoneTickets, now: number, staleDays: StaleDays): CheckpointDoctorFinding[] {
  const out: CheckpointDoctorFinding[] = [];
  const base = { level: "warning" as const, skill: entry.skill, file: entry.file };
  const projectDir = resolveNamedPath(facts.projectDir, checkpoint.project_dir);
  if (!facts.projectIsRepoRoot && !facts.existing.has(projectDir)) {
    out.push({ ...base, kind: "project_dir_missing", message: `${entry.skill}: project_dir ${checkpoint.project_dir} does not exist on this machine`, paths: [entry.path] });
  }
  const stale = staleness(checkpoint, now, staleDays);
  if (stale.stale) {
    out.push({
      ...base,
      kind: "stale",
      message: `${entry.skill} is ${checkpoint.status} and was last updated ${formatAge(stale.age_ms)} (threshold ${stale.threshold_days} days)`,
      paths: [entry.path],
    });
  }
  for (const listed of checkpoint.context_primer?.generated_files ?? []) {
    const named = namedGeneratedPath(listed);
    if (named === null) continue;
    const file = resolveNamedPath(facts.projectDir, named);
    if (!facts.existing.has(file)) {
      out.push({ ...base, kind: "generated_file_missing", message: `${entry.skill}: generated file ${named} (context_primer.generated_files) does not exist`, paths: [entry.path, file] });
    }
  }
  (checkpoint.next_actions ?? []).forEach((action, i) => {
    for (const ref of ticketRefs(actionText(action))) {
      const evidence = done.get(ref);
      if (evidence) {
        out.push({ ...base, kind: "done_ticket_still_next", message: `${entry.skill}: next_actions[${i}] names ${ref}, which is already done (${describeDone(evidence, checkpoint.skill)})`, paths: [entry.path] });
      }
    }
  });
  return out;
}

/** Every finding for a folder, in file order; drift is judged only on files without errors. */
export function diagnoseCheckpoints(files: readonly CheckedCheckpoint[], facts: DoctorFacts, now: number, staleDays: StaleDays): CheckpointDoctorFinding[] {
  const out: CheckpointDoctorFinding[] = [];
  const done = doneTickets(evidenceSources(files), facts.doneInGit);
  for (const entry of files) {
    const base = { skill: entry.skill, file: entry.file, paths: [entry.path] };
    if (entry.errors.length > 0) {
      const n = entry.errors.length;
      out.push({ ...base, kind: "validation_error", level: "error", message: `${entry.file}: ${n} validation error${n === 1 ? "" : "s"}: ${summarize(entry.errors)}` });
    }
    if (entry.warnings.length > 0) {
      const n = entry.warnings.length;
      out.push({ ...base, kind: "validation_warning", level: "warning", message: `${entry.file}: ${n} validation warning${n === 1 ? "" : "s"}: ${summarize(entry.warnings)}` });
    }
    if (entry.checkpoint) out.push(...driftFindings(entry, entry.checkpoint, facts, done, now, staleDays));
  }
  return out;
}
