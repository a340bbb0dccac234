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

/**
 * Hands over the validators a route bundles itself, each loaded on first use: a one-file bundle
 * started through vm.Script cannot import modules at run time, so loadValidator asks these first.
 */
export function provideValidators(loaders: Record<string, () => Promise<{ default: CompiledValidator }>>): void {
  for (const [name, load] of Object.entries(loaders)) provided.set(name, load);
}

const provided = new Map<string, () => Promise<{ default: CompiledValidator }>>();

export async function loadValidator(schemaName: string): Promise<CompiledValidator> {
  const cached = cache.get(schemaName);
  if (cached) return cached;
  const given = provided.get(schemaName);
  if (given) {
    const validator = (await given()).default;
    cache.set(schemaName, validator);
    return validator;
  }
  for (const part of schemaName.split("/")) validateId("schema", part);
  const moduleFile = schemaName.replace(/\//g, "__");
  let mod: { default: CompiledValidator };
  try {
    // Relative to a module one folder under dist/ (this one, or a bundle placed like one), and held in a
    // variable so that a bundler neither expands it into every validator nor rewrites it.
    const specifier = `../catalog/generated/validators/${moduleFile}.js`;
    mod = (await import(specifier)) as { default: CompiledValidator };
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
