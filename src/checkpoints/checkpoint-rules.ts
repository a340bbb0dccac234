// The validator rules a JSON Schema cannot express (DESIGN §8). Pure: data in, problems out.
// They run on whatever parsed, so each rule checks the types it relies on and stays silent otherwise.
import { idProblem } from "../core/ids.js";
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

const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Two ASCII digits at `i` as a number (NaN-free: callers have matched ISO_SHAPE). */
function twoDigits(value: string, i: number): number {
  return (value.charCodeAt(i) - 48) * 10 + (value.charCodeAt(i + 1) - 48);
}

/** A `YYYY-MM-DDTHH:MM:SS…Z` timestamp naming a real instant (no February 30th, no hour 25). */
export function isRealInstant(value: string): boolean {
  if (!ISO_SHAPE.test(value)) return false;
  const year = twoDigits(value, 0) * 100 + twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return monthDays !== undefined && day >= 1 && day <= monthDays && twoDigits(value, 11) < 24 && twoDigits(value, 14) < 60 && twoDigits(value, 17) < 60;
}

/** "3h", "2d": how far apart two instants are, for messages. */
export function roughDuration(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)}h`;
  return `${Math.round(minutes / 1440)}d`;
}

// The rules below use indexed loops and no per-item allocations: they run on every file of every scan.

/** Item `i` of `list` when it is a JSON object. */
function recordAt(list: unknown[], i: number): Doc | null {
  const item = list[i];
  return item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Doc) : null;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

// The common case in one test; idProblem (several checks) only runs to explain a failure.
const SAFE_ID = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_:@+.-]{1,128}$/;

function skillRule(doc: Doc, fileName: string, errors: CheckpointProblem[]): void {
  if (!nonEmpty(doc.skill)) return;
  if (SAFE_ID.test(doc.skill) && doc.skill + CHECKPOINT_SUFFIX === fileName) return;
  const problem = idProblem(doc.skill);
  if (problem !== null) {
    errors.push({ path: "skill", message: `${problem}: a skill names its file (<skill>${CHECKPOINT_SUFFIX})` });
    return;
  }
  const expected = `${doc.skill}${CHECKPOINT_SUFFIX}`;
  if (expected !== fileName) {
    errors.push({
      path: "skill",
      message: `is '${doc.skill}' but the file is ${fileName}: rename the file to ${expected} or set skill to '${skillFromFileName(fileName)}'`,
    });
  }
}

/** Epoch ms of a real `…Z` instant, NaN otherwise; a timestamp-shaped value naming no real instant is an error. */
function instant(value: unknown, path: string, errors: CheckpointProblem[]): number {
  if (typeof value !== "string") return NaN;
  if (isRealInstant(value)) return Date.parse(value);
  if (ISO_SHAPE.test(value)) errors.push({ path, message: `is not a real date and time (got '${value}')` });
  return NaN; // other shapes are reported by the schema
}

function timestampRules(doc: Doc, now: number, errors: CheckpointProblem[], warnings: CheckpointProblem[]): void {
  const created = instant(doc.created_at, "created_at", errors);
  const updated = instant(doc.updated_at, "updated_at", errors);
  if (updated < created) {
    errors.push({ path: "updated_at", message: `is before created_at (${String(doc.created_at)}): updated_at must be at or after created_at` });
  }
  if (updated > now + FUTURE_TOLERANCE_MS) {
    warnings.push({ path: "updated_at", message: `is ${roughDuration(updated - now)} in the future: stamp it with the current UTC time (is a clock wrong?)` });
  }
  nestedInstants(doc.recently_done, "recently_done", "at", errors);
  nestedInstants(doc.pm_refs, "pm_refs", "first_seen_at", errors);
}

function nestedInstants(list: unknown, field: string, key: string, errors: CheckpointProblem[]): void {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const item = recordAt(list, i);
    if (item && typeof item[key] === "string" && !isRealInstant(item[key])) instant(item[key], `${field}[${i}].${key}`, errors);
  }
}

function duplicateIdRule(doc: Doc, field: "progress_table" | "blockers", errors: CheckpointProblem[]): void {
  const list = doc[field];
  if (!Array.isArray(list) || list.length < 2) return;
  const firstAt = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    const id = recordAt(list, i)?.id;
    if (typeof id !== "string") continue;
    const first = firstAt.get(id);
    if (first === undefined) firstAt.set(id, i);
    else errors.push({ path: `${field}[${i}].id`, message: `duplicates ${field}[${first}].id '${id}': ids must be unique` });
  }
}

function rowIds(doc: Doc): Set<unknown> {
  const ids = new Set<unknown>();
  const rows = doc.progress_table;
  if (Array.isArray(rows)) for (let i = 0; i < rows.length; i++) ids.add(recordAt(rows, i)?.id);
  return ids;
}

function blockingRule(doc: Doc, warnings: CheckpointProblem[]): void {
  const blockers = doc.blockers;
  if (!Array.isArray(blockers) || blockers.length === 0) return;
  const ids = rowIds(doc);
  const check = (id: unknown, path: string) => {
    if (typeof id === "string" && id.trim() !== "" && !ids.has(id)) warnings.push({ path, message: `names '${id}', which is not a progress_table row id: use a row's id or drop blocking` });
  };
  for (let i = 0; i < blockers.length; i++) {
    const blocking = recordAt(blockers, i)?.blocking;
    if (typeof blocking === "string") check(blocking, `blockers[${i}].blocking`);
    else if (Array.isArray(blocking)) for (let k = 0; k < blocking.length; k++) check(blocking[k], `blockers[${i}].blocking[${k}]`);
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

/** Errors and warnings beyond the schema for one parsed file. */
export function checkpointRuleProblems(doc: Doc, input: RuleInput): { errors: CheckpointProblem[]; warnings: CheckpointProblem[] } {
  const errors: CheckpointProblem[] = [];
  const warnings: CheckpointProblem[] = [];
  skillRule(doc, input.fileName, errors);
  timestampRules(doc, input.now, errors, warnings);
  duplicateIdRule(doc, "progress_table", errors);
  duplicateIdRule(doc, "blockers", errors);
  blockingRule(doc, warnings);
  inProgressRules(doc, warnings);
  sizeRules(doc, input.sizeBytes, warnings);
  return { errors, warnings };
}
