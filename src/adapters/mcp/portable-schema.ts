// Served schemas spell a nullable value as `anyOf` branches of one `type` each, never as a `type`
// array: clients that map tool schemas onto a single-`type` dialect (Gemini's function declarations)
// reject or loosen a `type` array, and the Inspector's `--strict` warns about every one (docs/mcp.md
// "Served schemas"). The catalog keeps the shorter spelling; this is the same contract, rewritten.

type Schema = Record<string, unknown>;

/** Keywords that describe a value rather than constrain it: they stay beside the `anyOf`. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"]);
/** Keywords whose value is one schema, a list of schemas or a map of name → schema. */
const ONE = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function mapValues(map: unknown): unknown {
  if (!isSchema(map)) return map;
  return Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, portableSchema(schema)]));
}

/** `schema` with every `type` array, at any depth, rewritten as `anyOf` branches. Pure. */
export function portableSchema(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ONE.includes(key)) out[key] = portableSchema(value);
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map(portableSchema);
    else if (MAP.includes(key)) out[key] = mapValues(value);
    else out[key] = value;
  }
  return Array.isArray(out.type) ? splitTypes(out, out.type as string[]) : out;
}

/** Keywords that apply to a value of any type: a `null` branch keeps them too, so it accepts what it did. */
const ANY_TYPE = new Set(["enum", "const", "not", "anyOf", "oneOf", "allOf", "if", "then", "else", "$ref"]);

/** One branch per type, each with the constraints that apply to it; annotations stay outside. */
function splitTypes(schema: Schema, types: string[]): Schema {
  const outside: Schema = {};
  const constraints: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type") continue;
    if (ANNOTATIONS.has(key)) outside[key] = value;
    else constraints[key] = value;
  }
  const anyType = Object.fromEntries(Object.entries(constraints).filter(([key]) => ANY_TYPE.has(key)));
  const branches = types.map((type) => (type === "null" ? { type, ...anyType } : { type, ...constraints }));
  return types.length === 1 ? { ...outside, ...branches[0] } : { ...outside, anyOf: branches };
}
