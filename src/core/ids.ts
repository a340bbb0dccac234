// The one rule for ids that become part of a file path (docs/foundation.md). Pure.
// The JSON Schemas of the tools carry the same rule as SAFE_ID_PATTERN (a test keeps them equal).
import { AopError } from "./errors.js";

export type IdField = "feature_id" | "run_id" | "session_id" | "skill" | "operation_id" | "instance_id" | "mode" | "profile" | "step";

const MAX_ID_LENGTH = 128;
// Colons are legal (`run:<uuid>`); `@` and `+` appear in agent-generated ids.
const ID_CHAR_CLASS = "A-Za-z0-9_:@+.-";
/** A safe id as a JSON Schema `pattern`: 1-128 id characters, not starting with '.', no '..'. */
export const SAFE_ID_PATTERN = `^(?!\\.)(?!.*\\.\\.)[${ID_CHAR_CLASS}]{1,${MAX_ID_LENGTH}}$`;
const SAFE_ID = new RegExp(SAFE_ID_PATTERN);
const ID_CHARS = new RegExp(`^[${ID_CHAR_CLASS}]+$`);
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const WORKSPACE_ID = /^[0-9a-f]{32}$/;

/** A workspace id (DESIGN §24): 32 lowercase hex characters, also the name of its records ref and pulled folder. */
export function isWorkspaceId(value: unknown): boolean {
  return typeof value === "string" && WORKSPACE_ID.test(value);
}

/** True for a safe id of at most MAX_ID_LENGTH characters (one regex test: the common case). */
export function isSafeId(value: unknown): value is string {
  return typeof value === "string" && SAFE_ID.test(value);
}

/** Why `value` is not a safe path id, or null when it is. */
export function idProblem(value: unknown, maxLength = MAX_ID_LENGTH): string | null {
  if (isSafeId(value) && value.length <= maxLength) return null;
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
