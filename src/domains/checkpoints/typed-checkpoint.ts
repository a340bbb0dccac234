// A valid document as the services read it. The protocol (and its reference CLI) leaves many values
// untyped: `phase: 5` and `blockers: {}` are valid, a table that is not an array is only a warning.
// This view makes the texts text and drops what a reader cannot use, so status, next, resume and the
// doctor need no guards of their own. Pure; the file on disk keeps its shape.
import type { Blocker, Checkpoint, ContextPrimer, DoneEntry, NextAction, PmRef, ProgressRow } from "./checkpoint-types.js";

type Doc = Record<string, unknown>;

function isRecord(x: unknown): x is Doc {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

/** A value the reference accepts as text (anything but null/undefined), as text. */
function text(x: unknown): string {
  return typeof x === "string" ? x : x === undefined || x === null ? "" : typeof x === "object" ? JSON.stringify(x) : String(x);
}

function optionalText(x: unknown): string | undefined {
  return typeof x === "string" && x !== "" ? x : undefined;
}

function texts(x: unknown): string[] | undefined {
  return Array.isArray(x) ? x.filter((item): item is string => typeof item === "string") : undefined;
}

function rows(x: unknown): ProgressRow[] | undefined {
  if (!Array.isArray(x)) return undefined;
  return x.filter(isRecord).map((r) => ({ id: text(r.id), label: text(r.label), status: r.status as ProgressRow["status"] }));
}

function primer(x: unknown): ContextPrimer | undefined {
  if (!isRecord(x)) return undefined;
  const out: ContextPrimer = {};
  for (const key of ["key_decisions", "generated_files", "user_preferences"] as const) {
    const list = texts(x[key]);
    if (list) out[key] = list;
  }
  return out;
}

function blockers(x: unknown): Blocker[] | undefined {
  if (!Array.isArray(x)) return undefined;
  return x.filter(isRecord).map((b) => {
    const blocker: Blocker = { id: text(b.id), description: text(b.description) };
    if (typeof b.blocking === "string" || (Array.isArray(b.blocking) && b.blocking.every((id) => typeof id === "string"))) blocker.blocking = b.blocking as string | string[];
    if (typeof b.needs === "string") blocker.needs = b.needs as Blocker["needs"];
    const proposed = optionalText(b.proposed_resolution);
    if (proposed) blocker.proposed_resolution = proposed;
    return blocker;
  });
}

function doneEntries(x: unknown): DoneEntry[] | undefined {
  if (!Array.isArray(x)) return undefined;
  return x.filter((e): e is DoneEntry => isRecord(e) && typeof e.at === "string" && (typeof e.action === "string" || (isRecord(e.action) && typeof e.action.text === "string")));
}

function pmRefs(x: unknown): PmRef[] | undefined {
  if (!Array.isArray(x)) return undefined;
  return x.filter(isRecord).map((r) => ({ ...r, provider: text(r.provider), id: text(r.id) }) as PmRef);
}

/** The view of a document that validated without errors. */
export function typedCheckpoint(doc: Doc): Checkpoint {
  const view: Checkpoint = {
    protocol_version: doc.protocol_version as Checkpoint["protocol_version"],
    skill: text(doc.skill),
    project: text(doc.project),
    project_dir: text(doc.project_dir),
    created_at: text(doc.created_at),
    updated_at: text(doc.updated_at),
    phase: text(doc.phase),
    step: text(doc.step),
    status: doc.status as Checkpoint["status"],
    progress_summary: text(doc.progress_summary),
  };
  const table = rows(doc.progress_table);
  if (table) view.progress_table = table;
  const contextPrimer = primer(doc.context_primer);
  if (contextPrimer) view.context_primer = contextPrimer;
  const blockerList = blockers(doc.blockers);
  if (blockerList) view.blockers = blockerList;
  if (Array.isArray(doc.next_actions)) view.next_actions = doc.next_actions as NextAction[];
  const done = doneEntries(doc.recently_done);
  if (done) view.recently_done = done;
  if (isRecord(doc.skill_state)) view.skill_state = doc.skill_state;
  const refs = pmRefs(doc.pm_refs);
  if (refs) view.pm_refs = refs;
  if (isRecord(doc.cost)) view.cost = doc.cost;
  if (Array.isArray(doc.eval_scores)) view.eval_scores = doc.eval_scores as Checkpoint["eval_scores"];
  if (doc.telemetry_handle !== undefined) view.telemetry_handle = doc.telemetry_handle as Checkpoint["telemetry_handle"];
  return view;
}
