// Request headers for an export, from `--header NAME=VALUE`, the OTEL_EXPORTER_OTLP_HEADERS format and
// the user info of the endpoint's URL. Header values are secrets: messages name the header and where it
// came from, never its value. Pure.
import { AopError } from "../../core/errors.js";
import { redactHeader } from "./redact.js";

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function usage(message: string, hint?: string): AopError {
  return new AopError("usage_error", message, hint === undefined ? {} : { hint });
}

/** What HTTP carries in a field value (RFC 9110): tab, visible ASCII, space and Latin-1 bytes. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** Framing headers fetch refuses or replaces: each request would fail the same way until the budget ran out. */
const FRAMING = new Set(["connection", "content-length", "expect", "host", "keep-alive", "transfer-encoding", "upgrade"]);

/**
 * Refuses at once, naming the header and never its value, what fetch could not send: a value with a line
 * break, NUL or other control character (a token file of two lines), or beyond Latin-1, and framing headers.
 */
export function checkHeader(name: string, value: string, source: string): void {
  if (FRAMING.has(name)) throw usage(`${source}: header '${name}' is set by the HTTP connection itself and cannot be configured`, `remove '${name}' from ${source}`);
  if (FIELD_VALUE.test(value)) return;
  const what = CONTROL.test(value) ? "a line break, NUL or other control character" : "a character beyond U+00FF";
  throw usage(`${source}: header '${name}' has a value with ${what}, which HTTP cannot carry (the value is not shown)`, "a token read from a file may hold a second line or a stray character: keep only the token, e.g. \"$(head -n1 token.txt)\"");
}

/** `--header K=V`: the value is taken as typed. */
export function parseHeaderFlag(value: string): [string, string] {
  const eq = value.indexOf("=");
  const name = eq > 0 ? value.slice(0, eq).trim() : "";
  if (!HEADER_NAME.test(name)) throw usage(`--header must be NAME=VALUE with a valid header name (got ${redactHeader(value)})`, "e.g. --header x-honeycomb-team=$HONEYCOMB_KEY");
  const header: [string, string] = [name.toLowerCase(), value.slice(eq + 1).trim()];
  checkHeader(...header, "--header");
  return header;
}

/** The OTEL_EXPORTER_OTLP_HEADERS format: `k1=v1,k2=v2`, values percent-encoded (W3C baggage style). */
export function parseHeaderList(text: string, source: string): Record<string, string> {
  const out: Record<string, string> = {};
  const items = text.split(",");
  items.forEach((item, i) => {
    if (item.trim() === "") return;
    const eq = item.indexOf("=");
    const name = eq > 0 ? item.slice(0, eq).trim() : "";
    if (!HEADER_NAME.test(name)) throw usage(`${source}: entry ${i + 1} is not name=value with a valid header name (got ${redactHeader(item.trim())})`, "the format is name1=value1,name2=value2 with values percent-encoded");
    let decoded: string;
    try {
      decoded = decodeURIComponent(item.slice(eq + 1).trim());
    } catch {
      throw usage(`${source}: the value of header '${name}' is not valid percent-encoding`);
    }
    checkHeader(name.toLowerCase(), decoded, source);
    out[name.toLowerCase()] = decoded;
  });
  return out;
}

/** The user info of a URL as Basic credentials (what curl and Python's requests send), and the URL without it. */
export function splitUserInfo(value: string): { url: string; authorization: string | null } {
  const url = new URL(value);
  if (url.username === "" && url.password === "") return { url: url.href, authorization: null };
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const credentials = Buffer.from(`${decode(url.username)}:${decode(url.password)}`, "utf8").toString("base64");
  url.username = "";
  url.password = "";
  return { url: url.href, authorization: `Basic ${credentials}` };
}
