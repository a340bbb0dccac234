// JSON Merge Patch (RFC 7386): the `checkpoint.update` tool's patch format. Pure.
// `null` removes a key; objects merge recursively; anything else (arrays included) replaces.

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Sets an own property even for keys like `__proto__`, which plain assignment would treat specially. */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const result: Record<string, unknown> = {};
  if (isPlainObject(target)) for (const [k, v] of Object.entries(target)) defineOwn(result, k, v);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else defineOwn(result, key, applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value));
  }
  return result;
}
