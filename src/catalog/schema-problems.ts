// Turns schema errors into problems a person can act on: a JSON path and a message. Pure.
import { SAFE_ID_PATTERN } from "../core/ids.js";
import type { SchemaError } from "./load-validator.js";
import { compareText } from "../core/compare-text.js";

const SAFE_ID_RULE = "must be a safe id: 1-128 letters, digits or . _ - : @ +, not starting with '.' and without '..'";

export interface Problem {
  /** Dotted JSON path, e.g. `observability.replay.write_mode` or `rbac.qa[2]` ("" for the root). */
  path: string;
  message: string;
}

/** `/a/b/0/c` → `a.b[0].c` */
export function dottedPath(instancePath: string): string {
  if (instancePath === "") return "";
  let out = "";
  for (const raw of instancePath.slice(1).split("/")) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === "" ? part : `.${part}`;
  }
  return out;
}

function join(base: string, key: string): string {
  return base === "" ? key : `${base}.${key}`;
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return `'${value.length > 60 ? value.slice(0, 57) + "..." : value}'`;
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return String(value);
}

function orList(values: unknown[]): string {
  const shown = values.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1]}`;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

function toProblem(error: SchemaError): Problem {
  const at = dottedPath(error.instancePath);
  const p = error.params;
  switch (error.keyword) {
    case "required":
      return { path: join(at, String(p.missingProperty)), message: "is required" };
    case "additionalProperties": {
      const allowed = error.parentSchema?.properties ? Object.keys(error.parentSchema.properties as object) : [];
      const hint = allowed.length > 0 ? ` (allowed: ${allowed.join(", ")})` : "";
      return { path: join(at, String(p.additionalProperty)), message: `is not a known key${hint}` };
    }
    case "enum":
      return { path: at, message: `must be ${orList((p.allowedValues as unknown[]).filter((v) => v !== null))} (got ${describeValue(error.data)})` };
    case "const":
      return { path: at, message: `must be ${JSON.stringify(p.allowedValue)} (got ${describeValue(error.data)})` };
    case "type": {
      const expected = Array.isArray(p.type) ? (p.type as string[]).filter((t) => t !== "null").join(" or ") : String(p.type);
      return { path: at, message: `must be ${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected} (got ${typeName(error.data)} ${describeValue(error.data)})` };
    }
    case "propertyNames":
      return { path: at, message: `has an invalid key ${describeValue(p.propertyName)}` };
    case "pattern":
      if (p.pattern === SAFE_ID_PATTERN) return { path: at, message: `${SAFE_ID_RULE} (got ${describeValue(error.data)})` };
      return { path: at, message: `must match ${String(p.pattern)} (got ${describeValue(error.data)})` };
    default:
      return { path: at, message: `${error.message ?? error.keyword}${error.data !== undefined && typeof error.data !== "object" ? ` (got ${describeValue(error.data)})` : ""}` };
  }
}

/** One problem per schema error, duplicates and the noise of failed sub-schemas removed, sorted by path. */
export function schemaProblems(errors: SchemaError[]): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  // An enum on a propertyName also reports the propertyNames wrapper: keep the clearer one.
  for (const error of errors) {
    if (error.keyword === "if" || error.keyword === "anyOf" || error.keyword === "oneOf") continue;
    if (error.keyword === "enum" && (error as { propertyName?: string }).propertyName !== undefined) continue;
    const problem = toProblem(error);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
  }
  return out.sort((a, b) => compareText(a.path, b.path));
}
