// Validation of every id that becomes part of a file path. Pure.
import { AopError } from "./errors.js";

export type IdField = "feature_id" | "run_id" | "session_id" | "skill" | "operation_id" | "instance_id" | "mode" | "profile" | "step";

export const MAX_ID_LENGTH = 128;
// Colons are legal (`run:<uuid>`); `@` and `+` appear in agent-generated ids.
const ID_CHARS = /^[A-Za-z0-9_:@+.-]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Why `value` is not a safe path id, or null when it is. */
export function idProblem(value: unknown, maxLength = MAX_ID_LENGTH): string | null {
  if (typeof value !== "string") return `must be a string (got ${value === null ? "null" : typeof value})`;
  if (value.length === 0) return "must not be empty";
  if (value.length > maxLength) return `must be at most ${maxLength} characters (got ${value.length})`;
  if (value.includes("\u0000")) return "must not contain NUL";
  if (CONTROL_CHARS.test(value)) return "must not contain control characters";
  if (value.includes("/") || value.includes("\\")) return "must not contain '/' or '\\'";
  if (value.includes("..")) return "must not contain '..'";
  if (value.startsWith(".")) return "must not start with '.'";
  if (!ID_CHARS.test(value)) return "may only contain letters, digits and . _ - : @ +";
  return null;
}

/** Returns the id, or throws `invalid_argument` naming the field. */
export function validateId(field: IdField | string, value: unknown, maxLength = MAX_ID_LENGTH): string {
  const problem = idProblem(value, maxLength);
  if (problem !== null) {
    throw new AopError("invalid_argument", `${field} ${problem}`, {
      details: { field, value: typeof value === "string" ? value.slice(0, 80) : value },
    });
  }
  return value as string;
}
