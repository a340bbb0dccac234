// How an export's target may be shown (DESIGN §23): a URL's user info, query and fragment may carry a
// token, and header values are credentials. `redactUrl` is the one way an endpoint is shown, in
// messages, progress lines, dry runs, results and cursors; `hideSecrets` cleans text aop did not write
// (a fetch failure, a receiver's answer) that may quote the URL or a header back. Pure.

/** A URL as it may be shown: no user info, no query, no fragment (any of them may carry a token). */
export function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    const hidden = url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "";
    return `${url.protocol}//${url.host}${url.pathname}${hidden ? " (credentials and query hidden)" : ""}`;
  } catch {
    return "<not a URL>";
  }
}

/** A header as it may be shown: its name only (the text may be the secret itself when '=' is missing). */
export function redactHeader(value: string): string {
  const eq = value.indexOf("=");
  return eq === -1 ? "text without '='" : `'${JSON.stringify(value.slice(0, eq).slice(0, 64)).slice(1, -1)}=<hidden>'`;
}

/** Where a redirect points, as `scheme://host:port` only (its path and query may carry a token), or null. */
export function redirectOrigin(location: string | null, base: string): string | null {
  if (location === null || location.trim() === "") return null;
  try {
    const url = new URL(location.trim(), base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return `a ${url.protocol.slice(0, 16)} address`;
    return `${url.protocol}//${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
  } catch {
    return null;
  }
}

/** Shorter values cannot be told from ordinary text, and no credential is that short. */
const MIN_HIDDEN_LENGTH = 4;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What of a URL is secret: the password, the query (whole, and each value) and the fragment, raw and decoded. */
export function urlSecrets(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [value];
  }
  const parts = [url.password, url.search.slice(1), url.hash.slice(1), ...[...url.searchParams.values()]];
  return parts.flatMap((part) => [part, decoded(part)]);
}

/** `text` with every secret (longest first) replaced by `<hidden>`; secrets under MIN_HIDDEN_LENGTH are left. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  const ordered = [...new Set(secrets)].filter((s) => s.length >= MIN_HIDDEN_LENGTH).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of ordered) out = out.split(secret).join("<hidden>");
  return out;
}
