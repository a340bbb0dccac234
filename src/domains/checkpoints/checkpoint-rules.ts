// The validator rules a JSON Schema cannot express, and every warning and hint (docs/checkpoints.md).
// Errors and warnings are the reference CLI's, case by case; hints are advice it does not give and never
// fail validate. Pure: data in, problems out. They run on whatever parsed, so each rule checks the types
// it relies on and stays silent otherwise.
import { idProblem, isSafeId } from "../../core/ids.js";
import { instantOf, ISO_UTC_SHAPE } from "../../core/instant.js";
import { formatSpan } from "../../core/time-format.js";
import {
  CHECKPOINT_SUFFIX,
  FILE_WARN_BYTES,
  FUTURE_HINT_MS,
  FUTURE_WARN_MS,
  PROTOCOL_1_1_FIELDS,
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

function isRecord(x: unknown): x is Doc {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

/** The file is `<skill>.checkpoint.json`, with `skill` as the reference reads it (any present value, as text). */
function skillRule(doc: Doc, fileName: string, errors: CheckpointProblem[]): void {
  const declared = doc.skill;
  if (declared === undefined || declared === null || declared === "" || declared === false || declared === 0) return;
  const skill = typeof declared === "string" ? declared : typeof declared === "object" ? JSON.stringify(declared) : String(declared);
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

/**
 * Epoch ms of a real `…Z` instant, NaN otherwise. A timestamp-shaped value naming no real instant
 * (February 30th, hour 25) is an error wherever it appears: stricter than the reference, which checks
 * only the pattern (docs/checkpoints.md). Other shapes are the schema's to report.
 */
function instant(value: unknown, path: string, errors: CheckpointProblem[]): number {
  if (typeof value !== "string") return NaN;
  const at = instantOf(value);
  if (Number.isNaN(at) && ISO_UTC_SHAPE.test(value)) errors.push(notRealInstant(path, value));
  return at;
}

function notRealInstant(path: string, value: string): CheckpointProblem {
  return { path, message: `is not a real date and time (got '${value}')` };
}

function timestampRules(doc: Doc, now: number, errors: CheckpointProblem[], warnings: CheckpointProblem[], hints: CheckpointProblem[]): void {
  const created = instant(doc.created_at, "created_at", errors);
  const updated = instant(doc.updated_at, "updated_at", errors);
  if (updated < created) {
    errors.push({ path: "updated_at", message: `is before created_at (${String(doc.created_at)}): updated_at must be at or after created_at` });
  }
  if (updated > now + FUTURE_WARN_MS) {
    warnings.push({ path: "updated_at", message: `is ${formatSpan(updated - now)} in the future: stamp it with the current UTC time (is a clock wrong?)` });
  } else if (updated > now + FUTURE_HINT_MS) {
    hints.push({ path: "updated_at", message: `is ${formatSpan(updated - now)} ahead of this machine's clock (tolerated up to 24h)` });
  }
  nestedInstants(doc.recently_done, "recently_done", "at", errors);
  nestedInstants(doc.pm_refs, "pm_refs", "first_seen_at", errors);
  nestedInstants(doc.eval_scores, "eval_scores", "at", errors);
  if (isRecord(doc.telemetry_handle)) instant(doc.telemetry_handle.since, "telemetry_handle.since", errors);
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
function firstIdIndex(list: unknown[], id: unknown, end: number): number | undefined {
  for (let j = 0; j < end; j++) if (idAt(list, j) === id) return j;
  return undefined;
}

// Tables hold a handful of rows: looking through them costs less than a Map or a Set per file, up to
// this length (past it, lookups are hashed so a huge table stays linear).
const LOOK_BACK_LIMIT = 32;

function duplicateIdHint(doc: Doc, field: "progress_table" | "blockers", hints: CheckpointProblem[]): void {
  const list = doc[field];
  if (!Array.isArray(list) || list.length < 2) return;
  const firstAt = list.length > LOOK_BACK_LIMIT ? new Map<unknown, number>() : null;
  for (let i = 0; i < list.length; i++) {
    const id = idAt(list, i);
    if (id === undefined || id === null || id === "") continue;
    const first = firstAt ? firstAt.get(id) : firstIdIndex(list, id, i);
    if (first === undefined) firstAt?.set(id, i);
    else hints.push({ path: `${field}[${i}].id`, message: `duplicates ${field}[${first}].id '${String(id)}': blockers and the doctor name rows by id` });
  }
}

/**
 * A blocker's `blocking` should name a progress_table row. As in the reference: only when the table
 * has row ids, and compared as a value (a list of ids names no row).
 */
function blockingRule(doc: Doc, warnings: CheckpointProblem[]): void {
  const blockers = doc.blockers;
  const rows = doc.progress_table;
  if (!Array.isArray(blockers) || blockers.length === 0 || !Array.isArray(rows)) return;
  let hasIds = false;
  for (let i = 0; i < rows.length && !hasIds; i++) hasIds = Boolean(idAt(rows, i));
  if (!hasIds) return;
  const rowIds = rows.length > LOOK_BACK_LIMIT ? new Set(rows.map((_, i) => idAt(rows, i))) : null;
  for (let i = 0; i < blockers.length; i++) {
    const blocking = recordAt(blockers, i)?.blocking;
    if (!blocking) continue;
    const found = rowIds ? rowIds.has(blocking) : firstIdIndex(rows, blocking, rows.length) !== undefined;
    if (!found) {
      const named = typeof blocking === "string" ? `'${blocking}'` : JSON.stringify(blocking);
      warnings.push({ path: `blockers[${i}].blocking`, message: `names ${named}, which is not a progress_table row id: use one row's id or drop blocking` });
    }
  }
}

function inProgressRules(doc: Doc, warnings: CheckpointProblem[], hints: CheckpointProblem[]): void {
  if (doc.status !== "in_progress") return;
  if (!Array.isArray(doc.progress_table)) {
    warnings.push({ path: "progress_table", message: "is missing (or not a list) while status is in_progress: add rows {id, label, status} so a new session sees progress X/Y" });
  } else if (doc.progress_table.length === 0) {
    hints.push({ path: "progress_table", message: "is empty while status is in_progress: resume cannot show progress X/Y" });
  }
  if (doc.context_primer === undefined) {
    warnings.push({ path: "context_primer", message: "is missing while status is in_progress: record key_decisions, generated_files and user_preferences for the next session" });
  }
}

function sizeRules(doc: Doc, sizeBytes: number, warnings: CheckpointProblem[], hints: CheckpointProblem[]): void {
  if (typeof doc.progress_summary === "string" && doc.progress_summary.length > SUMMARY_WARN_CHARS) {
    warnings.push({ path: "progress_summary", message: `is ${doc.progress_summary.length} characters: keep it under ${SUMMARY_WARN_CHARS} (details belong in progress_table or context_primer)` });
  }
  if (Array.isArray(doc.recently_done) && doc.recently_done.length > RECENTLY_DONE_CAP) {
    hints.push({ path: "recently_done", message: `holds ${doc.recently_done.length} entries: \`done\` keeps the newest ${RECENTLY_DONE_CAP}` });
  }
  if (sizeBytes > FILE_WARN_BYTES) {
    warnings.push({ path: "", message: `the file is ${sizeBytes} bytes: keep a checkpoint under ${FILE_WARN_BYTES / 1024} KB (move bulky data out of skill_state and the summary)` });
  }
}

/** Both numbers, a budget above 0 and spend above it: the reference's "budget gate tripped". */
export function overBudget(cost: unknown): boolean {
  if (!isRecord(cost)) return false;
  const { total_usd: total, budget_usd: budget } = cost;
  return typeof total === "number" && typeof budget === "number" && budget > 0 && total > budget;
}

/** 1.1 rules beyond the schema: an eval score above its max (error), spend over budget (warning), 1.1 fields in a 1.0 file (hint). */
function protocol11Rules(doc: Doc, errors: CheckpointProblem[], warnings: CheckpointProblem[], hints: CheckpointProblem[]): void {
  const scores = doc.eval_scores;
  if (scores !== undefined && Array.isArray(scores)) {
    for (let i = 0; i < scores.length; i++) {
      const s = recordAt(scores, i);
      if (s && typeof s.score === "number" && typeof s.max === "number" && s.max > 0 && s.score > s.max) errors.push({ path: `eval_scores[${i}].score`, message: `is ${s.score}, above its max ${s.max}` });
    }
  }
  if (overBudget(doc.cost)) {
    const cost = doc.cost as { total_usd: number; budget_usd: number };
    warnings.push({ path: "cost.total_usd", message: `is ${cost.total_usd}, over cost.budget_usd ${cost.budget_usd}: the budget is spent` });
  }
  if (doc.protocol_version === "1.0" && (doc.cost !== undefined || doc.eval_scores !== undefined || doc.telemetry_handle !== undefined)) {
    for (let i = 0; i < PROTOCOL_1_1_FIELDS.length; i++) {
      const field = PROTOCOL_1_1_FIELDS[i]!;
      if (doc[field] !== undefined) hints.push({ path: field, message: `is a Checkpoint Protocol 1.1 field in a file that says protocol_version "1.0" (a reader of 1.0 only may not know it)` });
    }
  }
}

const PRIMER_LISTS = ["key_decisions", "generated_files", "user_preferences"] as const;
const HTTP_URL = /^https?:\/\/\S+$/;

/** Only spaces (or other whitespace): checked at the ends first, so ordinary texts cost two char reads. */
function blank(text: string): boolean {
  return text !== "" && (text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32) && text.trim() === "";
}

/** A required text the reference accepts as any present value: a hint when it is not a string, or only whitespace. */
function textHint(value: unknown, path: string, hints: CheckpointProblem[]): void {
  if (typeof value === "string") {
    if (blank(value)) hints.push({ path, message: "holds only whitespace" });
  } else if (value !== undefined && value !== null) hints.push({ path, message: `is ${describeKind(value)}: readers show it as text; write it as a string` });
}

/** A text of a row, blocker or pm_ref: `0` or `false` is missing (the schema catches null and ""); any other non-string a hint. */
function itemText(value: unknown, field: string, i: number, key: string, errors: CheckpointProblem[], hints: CheckpointProblem[]): void {
  if (value === undefined || value === null || typeof value === "string") return;
  if (value === 0 || value === false) errors.push({ path: `${field}[${i}].${key}`, message: `is required (got ${String(value)})` });
  else hints.push({ path: `${field}[${i}].${key}`, message: `is ${describeKind(value)}: write it as a string` });
}

/** What the protocol leaves untyped but a reader expects: texts that are text, lists that are lists. */
function shapeHints(doc: Doc, errors: CheckpointProblem[], hints: CheckpointProblem[]): void {
  // Named reads, not a loop over field names: this runs on every file of every scan.
  textHint(doc.skill, "skill", hints);
  textHint(doc.project, "project", hints);
  textHint(doc.project_dir, "project_dir", hints);
  textHint(doc.phase, "phase", hints);
  textHint(doc.step, "step", hints);
  textHint(doc.progress_summary, "progress_summary", hints);
  const rows = doc.progress_table;
  if (Array.isArray(rows)) {
    for (let i = 0; i < rows.length; i++) {
      const r = recordAt(rows, i);
      if (!r) continue;
      itemText(r.id, "progress_table", i, "id", errors, hints);
      itemText(r.label, "progress_table", i, "label", errors, hints);
    }
  } else if (rows !== undefined) hints.push({ path: "progress_table", message: `is ${describeKind(rows)}, not a list: it is ignored` });
  const blockers = doc.blockers;
  if (Array.isArray(blockers)) {
    for (let i = 0; i < blockers.length; i++) {
      const b = recordAt(blockers, i);
      if (!b) continue;
      itemText(b.id, "blockers", i, "id", errors, hints);
      itemText(b.description, "blockers", i, "description", errors, hints);
      if (b.needs === undefined) hints.push({ path: `blockers[${i}].needs`, message: "is missing: say who must act (user_decision, code_fix or external_dep) so next can rank it" });
    }
  } else if (blockers !== undefined) hints.push({ path: "blockers", message: `is ${describeKind(blockers)}, not a list: it is ignored` });
  if (doc.context_primer !== undefined) primerHints(doc.context_primer, hints);
  if (Array.isArray(doc.next_actions)) actionHints(doc.next_actions, hints);
  if (Array.isArray(doc.pm_refs)) pmRefHints(doc.pm_refs, errors, hints);
  if (doc.recently_done !== undefined && !Array.isArray(doc.recently_done)) hints.push({ path: "recently_done", message: `is ${describeKind(doc.recently_done)}, not a list: \`done\` will replace it` });
  if (doc.skill_state !== undefined && !isRecord(doc.skill_state)) hints.push({ path: "skill_state", message: `is ${describeKind(doc.skill_state)}: skills keep their private state in an object` });
}

function primerHints(primer: unknown, hints: CheckpointProblem[]): void {
  if (!isRecord(primer)) {
    hints.push({ path: "context_primer", message: `is ${describeKind(primer)}: an object {key_decisions, generated_files, user_preferences} lets resume skip a full re-read` });
    return;
  }
  for (let k = 0; k < PRIMER_LISTS.length; k++) {
    const key = PRIMER_LISTS[k]!;
    const list = primer[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) hints.push({ path: `context_primer.${key}`, message: `is ${describeKind(list)}: a list of strings is expected` });
    else for (let i = 0; i < list.length; i++) if (typeof list[i] !== "string") hints.push({ path: `context_primer.${key}[${i}]`, message: `is ${describeKind(list[i])}: a string is expected` });
  }
}

function actionHints(actions: unknown[], hints: CheckpointProblem[]): void {
  for (let i = 0; i < actions.length; i++) {
    const a: unknown = actions[i];
    const text = typeof a === "string" ? a : isRecord(a) && typeof a.text === "string" ? a.text : null;
    if (text !== null && (text === "" || blank(text))) hints.push({ path: `next_actions[${i}]`, message: "is empty: the next session reads next_actions[0] first" });
  }
}

function pmRefHints(refs: unknown[], errors: CheckpointProblem[], hints: CheckpointProblem[]): void {
  for (let i = 0; i < refs.length; i++) {
    const r = recordAt(refs, i);
    if (!r) continue;
    itemText(r.provider, "pm_refs", i, "provider", errors, hints);
    itemText(r.id, "pm_refs", i, "id", errors, hints);
    if (r.role === undefined) hints.push({ path: `pm_refs[${i}].role`, message: "is missing: source, child, deploy, incident or linked" });
    if (r.url !== undefined && !(typeof r.url === "string" && HTTP_URL.test(r.url))) hints.push({ path: `pm_refs[${i}].url`, message: "is not an http(s) URL" });
    if (r.first_seen_at !== undefined && !(typeof r.first_seen_at === "string" && ISO_UTC_SHAPE.test(r.first_seen_at))) hints.push({ path: `pm_refs[${i}].first_seen_at`, message: "is not an ISO 8601 UTC timestamp ending in Z" });
  }
}

function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  return `${typeof value === "number" ? "a number" : `a ${typeof value}`} (${String(value)})`;
}

export interface RuleProblems {
  errors: CheckpointProblem[];
  warnings: CheckpointProblem[];
  hints: CheckpointProblem[];
}

/** Adds the errors, warnings and hints beyond the schema for one parsed file. */
export function checkpointRuleProblems(doc: Doc, input: RuleInput, out: RuleProblems): void {
  const { errors, warnings, hints } = out;
  skillRule(doc, input.fileName, errors);
  timestampRules(doc, input.now, errors, warnings, hints);
  protocol11Rules(doc, errors, warnings, hints);
  blockingRule(doc, warnings);
  inProgressRules(doc, warnings, hints);
  sizeRules(doc, input.sizeBytes, warnings, hints);
  duplicateIdHint(doc, "progress_table", hints);
  duplicateIdHint(doc, "blockers", hints);
  shapeHints(doc, errors, hints);
}
