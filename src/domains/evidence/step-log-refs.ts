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

/** A JSON string without escapes, or null, starting at `start` after optional whitespace; undefined otherwise. */
function readValue(buf: Buffer, start: number): ScannedValue | undefined {
  const i = skipSpace(buf, start);
  if (buf[i] === 0x6e && buf.toString("latin1", i, i + 4) === "null") return { value: null, end: i + 4 };
  if (buf[i] !== QUOTE) return undefined;
  const close = buf.indexOf(QUOTE, i + 1);
  if (close === -1) return undefined;
  const escape = buf.indexOf(BACKSLASH, i + 1);
  if (escape !== -1 && escape < close) return undefined; // let JSON.parse decode escapes
  return { value: buf.toString("utf8", i + 1, close), end: close + 1 };
}

function skipSpace(buf: Buffer, start: number): number {
  let i = start;
  while (buf[i] === 0x20 || buf[i] === 0x0a || buf[i] === 0x0d || buf[i] === 0x09) i++;
  return i;
}

/** Our layout: each `"log_path": …` is followed directly by `, "log_sha256": …`. */
function scan(buf: Buffer): LogRef[] | undefined {
  const refs: LogRef[] = [];
  let p = buf.indexOf(PATH_KEY);
  // A hash key before the first path key is not our layout.
  const firstSha = buf.indexOf(SHA_KEY);
  if (firstSha !== -1 && (p === -1 || firstSha < p)) return undefined;
  let last = 0;
  while (p !== -1) {
    if (buf[p - 1] === BACKSLASH) return undefined;
    const path = readValue(buf, p + PATH_KEY.length);
    if (!path) return undefined;
    let i = skipSpace(buf, path.end);
    if (buf[i] !== 0x2c) return undefined; // ','
    i = skipSpace(buf, i + 1);
    if (buf.compare(SHA_KEY, 0, SHA_KEY.length, i, i + SHA_KEY.length) !== 0) return undefined;
    const sha = readValue(buf, i + SHA_KEY.length);
    if (!sha) return undefined;
    if (path.value !== null) refs.push({ log_path: path.value, log_sha256: sha.value });
    last = sha.end;
    p = buf.indexOf(PATH_KEY, last);
  }
  // Every hash key must have been paired with the path key just before it.
  return buf.indexOf(SHA_KEY, last) === -1 ? refs : undefined;
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
