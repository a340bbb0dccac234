// The handoff note (.aop/runtime/handoff.json; schemas/handoff/note.schema.json): where the work stands when
// a session hands it on. Read with a bound and validated every time, since a pulled one is untrusted input.
import validateNote from "../../catalog/generated/validators/handoff__note.js";
import { AopError } from "../../core/errors.js";
import { readTextBounded } from "../../store/read-text-bounded.js";

/** The note's size bound, the same one `aop sync push` copies it with (docs/handoff.md). */
export const MAX_HANDOFF_BYTES = 64 * 1024;

export interface HandoffNote {
  version: 1;
  created_at: string;
  workspace_id: string;
  display_name: string;
  objective: string;
  next_action: string;
  open_decisions: string[];
  last_run: { run_id: string; last_sequence: number; last_result: string | null } | null;
  evidence_heads: Record<string, { length: number; head: string }>;
  checkpoint: { skill: string; summary: string } | null;
  message: string | null;
  /** The checklist items that failed, when `aop handoff --force` wrote the note anyway. */
  checklist_failures: string[];
}

/** The note, or why the text is not one (the first schema problem, with its place). */
export function parseHandoffNote(text: string): HandoffNote | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "is not JSON" };
  }
  if (validateNote(value)) return value as HandoffNote;
  const first = validateNote.errors?.[0];
  return { problem: first ? `${first.instancePath || "(the note)"} ${first.message ?? first.keyword}` : "does not match the handoff note schema" };
}

/** The note at `file`, null when there is none; a note that cannot be used is `handoff_invalid`. */
export function readHandoffNote(file: string, shownAs: string): HandoffNote | null {
  const read = readTextBounded(file, MAX_HANDOFF_BYTES);
  if (read.status === "missing") return null;
  const bad = (why: string) => new AopError("handoff_invalid", `${shownAs} ${why}`, { details: { path: shownAs }, hint: "write a new one with `aop handoff` (on the machine that made it)" });
  if (read.status !== "ok") throw bad(read.status === "unreadable" ? `is unreadable (${read.reason})` : `is ${read.status.replace(/_/g, " ")}`);
  if (read.truncated) throw bad(`is over ${MAX_HANDOFF_BYTES} bytes`);
  if (read.binary) throw bad("is not text");
  const note = parseHandoffNote(read.text);
  if ("problem" in note) throw bad(`is not a handoff note: ${note.problem}`);
  return note;
}
