// Turns checkpoint-schema errors into problems that say what to fix. Pure.
// Unknown keys (`additionalProperties`) become hints: the protocol allows them (a file written by a newer
// skill still loads), and a typo such as `next_action` is still pointed out.
import type { SchemaError } from "../../catalog/load-validator.js";
import { describeValue, dottedPath } from "../../catalog/schema-problems.js";
import type { CheckpointProblem } from "./checkpoint-types.js";

const TIMESTAMP_EXAMPLE = "2026-03-01T09:30:00.000Z";

function join(base: string, key: string): string {
  return base === "" ? key : `${base}.${key}`;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${describeValue(value)}`;
  return `${typeof value} ${String(value)}`;
}

function orList(values: readonly unknown[]): string {
  const shown = values.map(String);
  return shown.length <= 1 ? shown.join("") : `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1]}`;
}

/** What a value at `path` is expected to be, for type errors. */
function expectedShape(path: string, types: string[]): string {
  if (/next_actions\[\d+\]$|recently_done\[\d+\]\.action$/.test(path)) return "a non-empty string or an object {text, done_when?}";
  if (/\.blocking$/.test(path)) return "a progress_table row id or an array of row ids";
  if (path === "") return "a JSON object (the checkpoint)";
  const named = types.map((t) => (t === "object" ? "an object" : t === "array" ? "an array" : `a ${t}`));
  return orList(named);
}

function patternMessage(error: SchemaError): string {
  const pattern = String(error.params.pattern);
  if (pattern === "\\S") return "must not be empty";
  if (pattern.startsWith("^\\d{4}")) return `must be an ISO 8601 UTC timestamp ending in Z, e.g. ${TIMESTAMP_EXAMPLE} (got ${describeValue(error.data)})`;
  if (pattern.startsWith("^https?")) return `must be an http(s) URL (got ${describeValue(error.data)})`;
  return `must match ${pattern} (got ${describeValue(error.data)})`;
}

function requiredMessage(error: SchemaError, at: string): CheckpointProblem {
  const missing = String(error.params.missingProperty);
  const path = join(at, missing);
  if (at === "" && missing === "next_actions") return { path, message: "is required while status is in_progress: add the next action to take" };
  return { path, message: "is required" };
}

// The protocol's required fields: null or "" there means "missing", whatever else the field must be.
const REQUIRED_FIELDS = new Set(["protocol_version", "skill", "project", "project_dir", "created_at", "updated_at", "phase", "step", "status", "progress_summary"]);

/** `present` / `truthy` in the schema: any type but null, and a string must not be empty. */
function isPresentRule(error: SchemaError): boolean {
  if (error.keyword === "minLength") return true;
  const types = error.params.type;
  return error.keyword === "type" && Array.isArray(types) && types.length === 5 && !types.includes("null");
}

function missingMessage(data: unknown): string {
  return data === "" ? "must not be empty" : `is required (got ${typeName(data)})`;
}

function toProblem(error: SchemaError): CheckpointProblem {
  const at = dottedPath(error.instancePath);
  const p = error.params;
  if ((error.data === null || error.data === "") && (REQUIRED_FIELDS.has(at) || isPresentRule(error))) return { path: at, message: missingMessage(error.data) };
  switch (error.keyword) {
    case "required":
      return requiredMessage(error, at);
    case "const":
      return { path: at, message: `must be ${JSON.stringify(p.allowedValue)} (got ${typeName(error.data)})` };
    case "enum":
      return { path: at, message: `must be ${orList(p.allowedValues as unknown[])} (got ${typeName(error.data)})` };
    case "type": {
      const types = Array.isArray(p.type) ? (p.type as string[]) : [String(p.type)];
      return { path: at, message: `must be ${expectedShape(at, types)} (got ${typeName(error.data)})` };
    }
    case "pattern":
      return { path: at, message: patternMessage(error) };
    case "minimum":
      return { path: at, message: `must be a number ≥ ${String(p.limit)} (got ${typeName(error.data)})` };
    case "exclusiveMinimum":
      return { path: at, message: `must be a number > ${String(p.limit)} (got ${typeName(error.data)})` };
    case "minLength":
      return { path: at, message: "must not be empty" };
    case "minItems":
      if (at === "next_actions") return { path: at, message: "must hold at least one action while status is in_progress (or set status to complete, blocked or failed)" };
      return { path: at, message: `must hold at least ${String(p.limit)} item${p.limit === 1 ? "" : "s"}` };
    default:
      return { path: at, message: `${error.message ?? error.keyword}` };
  }
}

function unknownKeyHint(error: SchemaError): CheckpointProblem {
  const at = dottedPath(error.instancePath);
  const key = String(error.params.additionalProperty);
  const known = error.parentSchema?.properties ? Object.keys(error.parentSchema.properties as object) : [];
  const advice = at === "" ? "; keep skill-private data in skill_state" : "";
  return { path: join(at, key), message: `is not a Checkpoint Protocol field (known: ${known.join(", ")})${advice}` };
}

/** Schema errors → errors (one per path: the first says what is wrong) and unknown-key hints. */
export function classifySchemaErrors(schemaErrors: readonly SchemaError[]): { errors: CheckpointProblem[]; hints: CheckpointProblem[] } {
  const errors: CheckpointProblem[] = [];
  const hints: CheckpointProblem[] = [];
  const seen = new Set<string>();
  for (const error of schemaErrors) {
    if (error.keyword === "if") continue; // its `then` errors say what is wrong
    const isHint = error.keyword === "additionalProperties";
    const problem = isHint ? unknownKeyHint(error) : toProblem(error);
    const key = isHint ? `hint\u0000${problem.path}` : problem.path;
    if (seen.has(key)) continue;
    seen.add(key);
    (isHint ? hints : errors).push(problem);
  }
  return { errors, hints };
}
