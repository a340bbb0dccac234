// Policy merge rule: objects merge key by key, arrays replace, an explicit null replaces. Pure.

function isMergeableObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function deepMerge(base: unknown, override: unknown): unknown {
  if (override === undefined) return structuredClone(base);
  if (!isMergeableObject(base) || !isMergeableObject(override)) return structuredClone(override);
  const out: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(override)) {
    out[key] = key in out ? deepMerge(out[key], value) : structuredClone(value);
  }
  return out;
}
