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

// Thrown without a location; each enclosing container prepends its segment while the error unwinds, so
// the common (successful) path never builds location strings.
class Unrepresentable {
  readonly segments: string[] = [];
  constructor(readonly reason: string) {}
}

// String.prototype.isWellFormed (ES2024, Node >= 20) is true exactly when there is no lone surrogate.
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

function serializeString(value: string): string {
  if (!isWellFormed(value)) throw new Unrepresentable("lone surrogate in string");
  // JSON.stringify implements exactly the JCS string escaping for well-formed strings; most strings need
  // none, and quoting them directly is several times cheaper than the call.
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function serialize(value: unknown, seen: Set<object>): string {
  switch (typeof value) {
    case "string":
      return serializeString(value);
    case "number":
      if (!Number.isFinite(value)) throw new Unrepresentable(`number ${String(value)} is not representable in JSON`);
      // ECMAScript Number-to-String is the JCS number format; JSON.stringify(-0) === "0".
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      throw new Unrepresentable("BigInt is not representable in JSON");
    case "undefined":
      throw new Unrepresentable("undefined is not representable in JSON");
    case "function":
    case "symbol":
      throw new Unrepresentable(`${typeof value} is not representable in JSON`);
  }
  if (value === null) return "null";
  const obj = value as object;
  if (seen.has(obj)) throw new Unrepresentable("cycle detected");
  seen.add(obj);
  let out: string;
  if (Array.isArray(obj)) {
    out = "[";
    let i = 0;
    try {
      for (; i < obj.length; i++) out += (i === 0 ? "" : ",") + serialize(obj[i], seen);
    } catch (err) {
      if (err instanceof Unrepresentable) err.segments.unshift(`[${i}]`);
      throw err;
    }
    out += "]";
  } else {
    if (!isPlainObject(obj)) throw new Unrepresentable(`${obj.constructor?.name ?? "object"} instance is not a plain JSON object`);
    const record = obj as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is what RFC 8785 §3.2.3 requires.
    const keys = Object.keys(record).sort();
    out = "{";
    let first = true;
    let key = "";
    try {
      for (key of keys) {
        const member = record[key];
        if (member === undefined) continue; // absent member, as in JSON.stringify
        out += (first ? "" : ",") + serializeString(key) + ":" + serialize(member, seen);
        first = false;
      }
    } catch (err) {
      if (err instanceof Unrepresentable) err.segments.unshift(`.${key}`);
      throw err;
    }
    out += "}";
  }
  seen.delete(obj);
  return out;
}

/** Serialize a JSON value per RFC 8785. Throws CanonicalJsonError on unrepresentable input. */
export function canonicalJson(value: unknown): string {
  try {
    return serialize(value, new Set());
  } catch (err) {
    if (err instanceof Unrepresentable) throw new CanonicalJsonError(err.reason, `$${err.segments.join("")}`);
    throw err;
  }
}
