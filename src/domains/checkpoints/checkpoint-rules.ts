// The validator rules a JSON Schema cannot express (docs/checkpoints.md). Pure: data in, problems out.
// They run on whatever parsed, so each rule checks the types it relies on and stays silent otherwise.
import { idProblem, isSafeId } from "../../core/ids.js";
import { instantOf, ISO_UTC_SHAPE } from "../../core/instant.js";
import { formatSpan } from "../../core/time-format.js";
import {
  CHECKPOINT_SUFFIX,
  FILE_WARN_BYTES,
  FUTURE_TOLERANCE_MS,
  RECENTLY_DONE_CAP,
  SUMMARY_WARN_CHARS,
  skillFromFileName,
  type CheckpointProblem,
} from "./checkpoint-types.js";

export interface RuleInput {
  fileName: string;
  sizeBytes: number;
  now: number;
}

type Doc = Record<string, unknown>;

// The rules below use indexed loops and no per-item allocations: they run on every file of every scan.

/** Item `i` of `list` when it is a JSON object. */
function recordAt(list: unknown[], i: number): Doc | null {
  const item = list[i];
  return item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Doc) : null;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

function skillRule(doc: Doc, fileName: string, errors: CheckpointProblem[]): void {
  const skill = doc.skill;
  if (!nonEmpty(skill)) return;
  // `fileName === skill + suffix`, without building the string.
  if (fileName.length === skill.length + CHECKPOINT_SUFFIX.length && fileName.startsWith(skill) && fileName.endsWith(CHECKPOINT_SUFFIX) && isSafeId(skill)) return;
  const problem = idProblem(skill);
  if (problem !== null) {
    errors.push({ path: "skill", message: `${problem}: a skill names its file (<skill>${CHECKPOINT_SUFFIX})` });
    return;
  }
  const expected = `${skill}${CHECKPOINT_SUFFIX}`;
  if (expected !== fileName) {
    errors.push({
      path: "skill",
      message: `is '${skill}' but the file is ${fileName}: rename the file to ${expected} or set skill to '${skillFromFileName(fileName)}'`,
    });
  }
}

/** Epoch ms of a real `…Z` instant, NaN otherwise; a timestamp-shaped value naming no real instant is an error. */
function instant(value: unknown, path: string, errors: CheckpointProblem[]): number {
  if (typeof value !== "string") return NaN;
  const at = instantOf(value);
  if (Number.isNaN(at) && ISO_UTC_SHAPE.test(value)) errors.push(notRealInstant(path, value));
  return at; // other shapes are reported by the schema
}

function notRealInstant(path: string, value: string): CheckpointProblem {
  return { path, message: `is not a real date and time (got '${value}')` };
}

function timestampRules(doc: Doc, now: number, errors: CheckpointProblem[], warnings: CheckpointProblem[]): void {
  const created = instant(doc.created_at, "created_at", errors);
  const updated = instant(doc.updated_at, "updated_at", errors);
  if (updated < created) {
    errors.push({ path: "updated_at", message: `is before created_at (${String(doc.created_at)}): updated_at must be at or after created_at` });
  }
  if (updated > now + FUTURE_TOLERANCE_MS) {
    warnings.push({ path: "updated_at", message: `is ${formatSpan(updated - now)} in the future: stamp it with the current UTC time (is a clock wrong?)` });
  }
  nestedInstants(doc.recently_done, "recently_done", "at", errors);
  nestedInstants(doc.pm_refs, "pm_refs", "first_seen_at", errors);
}

function nestedInstants(list: unknown, field: string, key: string, errors: CheckpointProblem[]): void {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const value = recordAt(list, i)?.[key];
    // The path is only built for a problem.
    if (typeof value === "string" && Number.isNaN(instantOf(value)) && ISO_UTC_SHAPE.test(value)) errors.push(notRealInstant(`${field}[${i}].${key}`, value));
  }
}

/** The `id` of item `i` (undefined unless the item is an object that has one). */
function idAt(list: unknown[], i: number): unknown {
  const item = list[i];
  return item !== null && typeof item === "object" ? (item as Doc).id : undefined;
}

/** Index of the first item before `end` whose id is `id`. */
function firstIdIndex(list: unknown[], id: string, end: number): number | undefined {
  for (let j = 0; j < end; j++) if (idAt(list, j) === id) return j;
  return undefined;
}

// Tables hold a handful of rows: looking through them costs less than a Map or a Set per file, up to
// this length (past it, lookups are hashed so a huge table stays linear).
const LOOK_BACK_LIMIT = 32;

function duplicateIdRule(doc: Doc, field: "progress_table" | "blockers", errors: CheckpointProblem[]): void {
  const list = doc[field];
  if (!Array.isArray(list) || list.length < 2) return;
  const firstAt = list.length > LOOK_BACK_LIMIT ? new Map<string, number>() : null;
  for (let i = 0; i < list.length; i++) {
    const id = idAt(list, i);
    if (typeof id !== "string") continue;
    const first = firstAt ? firstAt.get(id) : firstIdIndex(list, id, i);
    if (first === undefined) firstAt?.set(id, i);
    else errors.push({ path: `${field}[${i}].id`, message: `duplicates ${field}[${first}].id '${id}': ids must be unique` });
  }
}

/** A non-empty string that is not the id of any row. */
function namesNoRow(id: unknown, rows: unknown[], rowIds: Set<unknown> | null): id is string {
  if (typeof id !== "string" || id.trim() === "") return false;
  return rowIds ? !rowIds.has(id) : firstIdIndex(rows, id, rows.length) === undefined;
}

function noRowWarning(id: string, path: string): CheckpointProblem {
  return { path, message: `names '${id}', which is not a progress_table row id: use a row's id or drop blocking` };
}

function blockingRule(doc: Doc, warnings: CheckpointProblem[]): void {
  const blockers = doc.blockers;
  if (!Array.isArray(blockers) || blockers.length === 0) return;
  const rows: unknown[] = Array.isArray(doc.progress_table) ? doc.progress_table : [];
  const rowIds = rows.length > LOOK_BACK_LIMIT ? new Set(rows.map((_, i) => idAt(rows, i))) : null;
  for (let i = 0; i < blockers.length; i++) {
    const blocking = recordAt(blockers, i)?.blocking;
    if (typeof blocking === "string") {
      if (namesNoRow(blocking, rows, rowIds)) warnings.push(noRowWarning(blocking, `blockers[${i}].blocking`));
    } else if (Array.isArray(blocking)) {
      for (let k = 0; k < blocking.length; k++) {
        const id: unknown = blocking[k];
        if (namesNoRow(id, rows, rowIds)) warnings.push(noRowWarning(id, `blockers[${i}].blocking[${k}]`));
      }
    }
  }
}

function inProgressRules(doc: Doc, warnings: CheckpointProblem[]): void {
  if (doc.status !== "in_progress") return;
  if (doc.progress_table === undefined || (Array.isArray(doc.progress_table) && doc.progress_table.length === 0)) {
    warnings.push({ path: "progress_table", message: "is missing or empty while status is in_progress: add rows {id, label, status} so a new session sees progress X/Y" });
  }
  if (doc.context_primer === undefined) {
    warnings.push({ path: "context_primer", message: "is missing while status is in_progress: record key_decisions, generated_files and user_preferences for the next session" });
  }
}

function sizeRules(doc: Doc, sizeBytes: number, warnings: CheckpointProblem[]): void {
  if (typeof doc.progress_summary === "string" && doc.progress_summary.length > SUMMARY_WARN_CHARS) {
    warnings.push({ path: "progress_summary", message: `is ${doc.progress_summary.length} characters: keep it under ${SUMMARY_WARN_CHARS} (details belong in progress_table or context_primer)` });
  }
  if (Array.isArray(doc.recently_done) && doc.recently_done.length > RECENTLY_DONE_CAP) {
    warnings.push({ path: "recently_done", message: `holds ${doc.recently_done.length} entries: keep the newest ${RECENTLY_DONE_CAP}` });
  }
  if (sizeBytes > FILE_WARN_BYTES) {
    warnings.push({ path: "", message: `the file is ${sizeBytes} bytes: keep a checkpoint under ${FILE_WARN_BYTES / 1024} KB (move bulky data out of skill_state and the summary)` });
  }
}

/** Adds the errors and warnings beyond the schema for one parsed file. */
export function checkpointRuleProblems(doc: Doc, input: RuleInput, errors: CheckpointProblem[], warnings: CheckpointProblem[]): void {
  skillRule(doc, input.fileName, errors);
  timestampRules(doc, input.now, errors, warnings);
  duplicateIdRule(doc, "progress_table", errors);
  duplicateIdRule(doc, "blockers", errors);
  blockingRule(doc, warnings);
  inProgressRules(doc, warnings);
  sizeRules(doc, input.sizeBytes, warnings);
}
