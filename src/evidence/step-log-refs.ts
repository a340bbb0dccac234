// Which step logs an evidence file points at (`log_path` with its `log_sha256`). Pure.
// Verification needs this for every chained artifact, and a full JSON.parse of each ~2 KB file was the
// largest cost of verifying a long chain; so the bytes are scanned for the two keys as our writer lays
// them out, and anything unexpected (escapes, another key order, a missing pair) falls back to JSON.parse.
// The scan is sound because in JSON text `"log_path":` can only occur as a key: inside a string every
// quote is escaped, and a match preceded by a backslash is sent to the fallback.

export interface LogRef {
  log_path: string;
  /** As recorded; anything but a matching hash string fails verification. */
  log_sha256: unknown;
}

const PATH_KEY = Buffer.from('"log_path":');
const SHA_KEY = Buffer.from('"log_sha256":');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface ScannedValue {
  value: string | null;
  end: number;
}

/** A JSON string without escapes, or null, starting at `i` after optional whitespace; undefined otherwise. */
function readValue(buf: Buffer, start: number): ScannedValue | undefined {
  let i = start;
  while (buf[i] === 0x20 || buf[i] === 0x0a || buf[i] === 0x0d || buf[i] === 0x09) i++;
  if (buf[i] === 0x6e && buf.toString("latin1", i, i + 4) === "null") return { value: null, end: i + 4 };
  if (buf[i] !== QUOTE) return undefined;
  const close = buf.indexOf(QUOTE, i + 1);
  if (close === -1) return undefined;
  const escape = buf.indexOf(BACKSLASH, i + 1);
  if (escape !== -1 && escape < close) return undefined; // let JSON.parse decode escapes
  return { value: buf.toString("utf8", i + 1, close), end: close + 1 };
}

function scan(buf: Buffer): LogRef[] | undefined {
  const refs: LogRef[] = [];
  let at = 0;
  for (;;) {
    const p = buf.indexOf(PATH_KEY, at);
    const s = buf.indexOf(SHA_KEY, at);
    if (p === -1) return s === -1 ? refs : undefined;
    if (s === -1 || s < p || buf[p - 1] === BACKSLASH || buf[s - 1] === BACKSLASH) return undefined;
    const path = readValue(buf, p + PATH_KEY.length);
    if (!path) return undefined;
    const nextPath = buf.indexOf(PATH_KEY, path.end);
    if (nextPath !== -1 && nextPath < s) return undefined; // a path without its hash
    const sha = readValue(buf, s + SHA_KEY.length);
    if (!sha) return undefined;
    if (path.value !== null) refs.push({ log_path: path.value, log_sha256: sha.value });
    at = sha.end;
  }
}

/** The reference semantics: every step result that names a log. */
export function parseLogRefs(text: string): LogRef[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const results = (doc as { step_results?: unknown } | null)?.step_results;
  if (!Array.isArray(results)) return [];
  const refs: LogRef[] = [];
  for (const r of results as (Record<string, unknown> | null)[]) {
    if (r && typeof r.log_path === "string") refs.push({ log_path: r.log_path, log_sha256: r.log_sha256 });
  }
  return refs;
}

export function stepLogRefs(bytes: Uint8Array): LogRef[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return scan(buf) ?? parseLogRefs(buf.toString("utf8"));
}
