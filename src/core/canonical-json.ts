// RFC 8785 (JSON Canonicalization Scheme). Pure: value in, canonical string out.
// Anything JSON cannot represent exactly is an error, never silently coerced.

export class CanonicalJsonError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${message} at ${path}`);
    this.name = "CanonicalJsonError";
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function serializeString(value: string, path: string): string {
  if (LONE_SURROGATE.test(value)) throw new CanonicalJsonError("lone surrogate in string", path);
  // JSON.stringify implements exactly the JCS string escaping for well-formed strings.
  return JSON.stringify(value);
}

function serializeNumber(value: number, path: string): string {
  if (!Number.isFinite(value)) throw new CanonicalJsonError(`number ${String(value)} is not representable in JSON`, path);
  // ECMAScript Number-to-String is the JCS number format; JSON.stringify(-0) === "0".
  return JSON.stringify(value);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function serialize(value: unknown, path: string, seen: Set<object>): string {
  switch (typeof value) {
    case "string":
      return serializeString(value, path);
    case "number":
      return serializeNumber(value, path);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      throw new CanonicalJsonError("BigInt is not representable in JSON", path);
    case "undefined":
      throw new CanonicalJsonError("undefined is not representable in JSON", path);
    case "function":
    case "symbol":
      throw new CanonicalJsonError(`${typeof value} is not representable in JSON`, path);
  }
  if (value === null) return "null";
  const obj = value as object;
  if (seen.has(obj)) throw new CanonicalJsonError("cycle detected", path);
  seen.add(obj);
  let out: string;
  if (Array.isArray(obj)) {
    const parts: string[] = [];
    for (let i = 0; i < obj.length; i++) parts.push(serialize(obj[i], `${path}[${i}]`, seen));
    out = `[${parts.join(",")}]`;
  } else {
    if (!isPlainObject(obj)) {
      throw new CanonicalJsonError(`${obj.constructor?.name ?? "object"} instance is not a plain JSON object`, path);
    }
    const record = obj as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is what RFC 8785 §3.2.3 requires.
    const keys = Object.keys(record).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const member = record[key];
      if (member === undefined) continue; // absent member, as in JSON.stringify
      const memberPath = `${path}.${key}`;
      parts.push(`${serializeString(key, memberPath)}:${serialize(member, memberPath, seen)}`);
    }
    out = `{${parts.join(",")}}`;
  }
  seen.delete(obj);
  return out;
}

/** Serialize a JSON value per RFC 8785. Throws CanonicalJsonError on unrepresentable input. */
export function canonicalJson(value: unknown): string {
  return serialize(value, "$", new Set());
}
