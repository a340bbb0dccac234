// Ticket and pull-request references (`#123`, `ABC-123`) in next actions, table rows and commit
// messages, for the doctor's "already done but still queued" drift check. Pure.

const HASH_REF = /(?<![\w&/#])#(\d+)\b/g;
const KEY_REF = /\b([A-Z][A-Z0-9]{1,9}-\d+)\b/g;
/** Uppercase prefixes that are standards, not ticket keys (SHA-256, UTF-8, ISO-8601 …). */
const NOT_TICKET_KEYS = new Set(["SHA", "UTF", "ISO", "RFC", "TLS", "SSL", "HTTP", "IPV", "MD", "ES", "ECMA", "CVE", "ASCII", "UCS", "AES", "RSA", "X"]);
const CLOSING_WORD = /\b(fix(e[sd])?|close[sd]?|resolve[sd]?|done|complete[sd]?|finish(e[sd])?|implement(s|ed)?|merge[sd]?)\b/i;

/** Every ticket reference in `text`, in order of appearance, without duplicates. */
export function ticketRefs(text: string): string[] {
  const found: { at: number; ref: string }[] = [];
  for (const m of text.matchAll(HASH_REF)) found.push({ at: m.index, ref: `#${m[1]}` });
  for (const m of text.matchAll(KEY_REF)) {
    if (!NOT_TICKET_KEYS.has(m[1]!.split("-")[0]!)) found.push({ at: m.index, ref: m[1]! });
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.ref))];
}

/**
 * Tickets a commit log reports as finished: a line naming the ticket with a closing word
 * ("Fixes #12", "ABC-7 done", "Merge pull request #40"), or a squash-merge subject ending in "(#40)".
 */
export function ticketsDoneInLog(log: string): Set<string> {
  const done = new Set<string>();
  for (const line of log.split("\n")) {
    const refs = ticketRefs(line);
    if (refs.length === 0) continue;
    if (CLOSING_WORD.test(line)) for (const ref of refs) done.add(ref);
    const squash = /\(#(\d+)\)\s*$/.exec(line);
    if (squash) done.add(`#${squash[1]}`);
  }
  return done;
}
