// The one merge rule (docs/foundation.md#merges): objects merge key by key, anything else (arrays
// included) replaces. Policies keep an explicit null (it replaces a default); JSON Merge Patch
// (RFC 7386, `checkpoint.update`) removes the key. Keys that would reach an object's prototype
// (`__proto__`, `constructor`, `prototype`) are refused, never merged. Pure.
import { AopError } from "./errors.js";

export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Sets an own property even for a key like `__proto__` read from a file, which plain assignment would treat specially. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The dotted path of the first forbidden key in `value` (objects and arrays walked), or null. */
export function forbiddenKeyPath(value: unknown, at = ""): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = forbiddenKeyPath(value[i], `${at}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (!isPlainObject(value)) return null;
  for (const key of Object.keys(value)) {
    const here = at === "" ? key : `${at}.${key}`;
    if (FORBIDDEN_KEYS.has(key)) return here;
    const found = forbiddenKeyPath(value[key], here);
    if (found !== null) return found;
  }
  return null;
}

/** The message every refusal of a forbidden key uses. */
export function forbiddenKeyMessage(path: string): string {
  const key = path.slice(path.lastIndexOf(".") + 1);
  return `${path}: the key '${key}' is refused (__proto__, constructor and prototype would reach an object's prototype); rename or remove it`;
}

export interface MergeOptions {
  /** true: a null removes the key (RFC 7386); false: a null replaces the value (policies). */
  nullRemoves: boolean;
  /** Names the merged-in document in the message when a forbidden key is refused (e.g. "patch"). */
  label?: string;
}

/** Throws `invalid_argument` naming the first forbidden key of `value` (under `label`, e.g. "patch"). */
function refuseForbiddenKeys(value: unknown, label = ""): void {
  const path = forbiddenKeyPath(value, label);
  if (path !== null) throw new AopError("invalid_argument", forbiddenKeyMessage(path), { details: { path } });
}

function mergeInto(base: unknown, override: unknown, nullRemoves: boolean): unknown {
  if (!isPlainObject(override)) return structuredClone(override);
  const out: Record<string, unknown> = {};
  if (isPlainObject(base)) for (const [key, value] of Object.entries(base)) defineOwn(out, key, value);
  for (const [key, value] of Object.entries(override)) {
    if (value === null && nullRemoves) delete out[key];
    else defineOwn(out, key, mergeInto(Object.hasOwn(out, key) ? out[key] : undefined, value, nullRemoves));
  }
  return out;
}

/**
 * `override` merged over `base`; neither input is modified (the result shares no object with them).
 * A forbidden key in `override` fails with `invalid_argument` naming its path.
 */
export function mergeDocuments(base: unknown, override: unknown, options: MergeOptions): unknown {
  if (override === undefined) return structuredClone(base);
  refuseForbiddenKeys(override, options.label);
  return mergeInto(structuredClone(base), override, options.nullRemoves);
}

/** JSON Merge Patch (RFC 7386): null removes a key, objects merge recursively, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  return mergeDocuments(target, patch, { nullRemoves: true, label: "patch" });
}
