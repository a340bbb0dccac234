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
 * Hands over validators a bundle holds itself, each loaded on first use: a bundle started through
 * vm.Script cannot import modules at run time, so loadValidator asks these first. `provideValidators`
 * names a few (the hook's); `provideValidatorLoader` serves any by its module name (the CLI bundle's).
 */
export function provideValidators(loaders: Record<string, () => Promise<{ default: CompiledValidator }>>): void {
  for (const [name, load] of Object.entries(loaders)) provided.set(name, load);
}

export function provideValidatorLoader(load: (moduleFile: string) => Promise<{ default: CompiledValidator }>): void {
  providedLoader = load;
}

const provided = new Map<string, () => Promise<{ default: CompiledValidator }>>();
let providedLoader: ((moduleFile: string) => Promise<{ default: CompiledValidator }>) | undefined;

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
    // Held in a variable so that a bundler (the hook's) neither expands it into every validator nor rewrites it.
    const specifier = `../catalog/generated/validators/${moduleFile}.js`;
    mod = providedLoader ? await providedLoader(moduleFile) : ((await import(specifier)) as { default: CompiledValidator });
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
