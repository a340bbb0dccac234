// Loads the precompiled validator for a schema name (e.g. "config/policy", "input/feature.init").
// Validators are generated at build time from schemas/ (scripts/generate-validators.mjs).
import { validateId } from "../core/ids.js";

export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  data?: unknown;
  parentSchema?: Record<string, unknown>;
  schema?: unknown;
}

export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

const cache = new Map<string, CompiledValidator>();

export async function loadValidator(schemaName: string): Promise<CompiledValidator> {
  const cached = cache.get(schemaName);
  if (cached) return cached;
  for (const part of schemaName.split("/")) validateId("schema", part);
  const moduleFile = schemaName.replace(/\//g, "__");
  let mod: { default: CompiledValidator };
  try {
    mod = (await import(`./generated/validators/${moduleFile}.js`)) as { default: CompiledValidator };
  } catch (err) {
    throw new Error(`no compiled validator for schema '${schemaName}' (run npm run build)`, { cause: err });
  }
  cache.set(schemaName, mod.default);
  return mod.default;
}

/** Validate and return the errors (empty when valid). */
export async function validateAgainst(schemaName: string, data: unknown): Promise<SchemaError[]> {
  const validate = await loadValidator(schemaName);
  return validate(data) ? [] : [...(validate.errors ?? [])];
}
