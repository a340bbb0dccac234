// What a search matches and in which order it shows hits (docs/replay.md, "Search"). Pure: the sources
// turn what aop keeps into documents, this decides which match and keeps one page of them, newest first.
import { AopError } from "../../core/errors.js";
import { tokenize, tokensMatch } from "../../core/search-words.js";

export { tokenize };

export type HitKind = "run" | "step" | "checkpoint" | "memory" | "finding" | "gate";

/** One thing a search can find, built from a record aop keeps (never from a raw tool input). */
export interface SearchDoc {
  kind: HitKind;
  /** When it happened (ISO UTC), null when the record does not say: such hits sort last. */
  ts: string | null;
  /** Unique within its workspace and stable across searches: ties on `ts` are ordered by it, cursors name it. */
  key: string;
  title: string;
  /** The searchable fields, in the order a snippet is taken from. */
  fields: string[];
  tool_name?: string | null;
  feature_id?: string | null;
  result?: "ok" | "error" | null;
  run_id?: string;
  sequence?: number;
  skill?: string;
  /** The command that opens the hit (relative to its workspace; the service prefixes --root for another). */
  open: string;
  /** For a step: the command that shows the state just after it. */
  state?: string;
}

/** A document placed in the order: which workspace it came from ("" for the current one). */
export type PlacedDoc = SearchDoc & { where: string };

export interface SearchFilter {
  tool_name?: string;
  feature_id?: string;
  result?: "ok" | "error";
  /** ISO UTC: only hits at or after it. */
  since?: string;
  kinds?: readonly HitKind[];
}

const MAX_WORDS = 16;

/** The query's words, deduplicated; a word of a query is matched as the start of a word of the record. */
export function parseQuery(query: string): string[] {
  const words = [...new Set(tokenize(query))];
  if (words.length > MAX_WORDS) throw new AopError("invalid_argument", `query has ${words.length} words; at most ${MAX_WORDS} are searched`, { hint: "use fewer, more specific words" });
  return words;
}

export function docTokens(doc: Pick<SearchDoc, "fields">): string[] {
  return tokenize(doc.fields.join(" "));
}

function passesFilter(doc: SearchDoc, f: SearchFilter): boolean {
  if (f.kinds !== undefined && !f.kinds.includes(doc.kind)) return false;
  // A filter on a field the hit does not carry leaves it out: `--tool x` never shows a memory section.
  if (f.tool_name !== undefined && doc.tool_name !== f.tool_name) return false;
  if (f.feature_id !== undefined && doc.feature_id !== f.feature_id) return false;
  if (f.result !== undefined && doc.result !== f.result) return false;
  if (f.since !== undefined && (doc.ts === null || doc.ts < f.since)) return false;
  return true;
}

export function docMatches(doc: SearchDoc, words: readonly string[], f: SearchFilter): boolean {
  return passesFilter(doc, f) && tokensMatch(docTokens(doc), words);
}

/** The first field holding a matched word (or the first field), on one line and at most 160 characters. */
export function snippet(doc: SearchDoc, words: readonly string[]): string {
  const field = doc.fields.find((f) => tokenize(f).some((t) => words.some((w) => t.startsWith(w)))) ?? doc.fields[0] ?? "";
  const flat = field.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

// ---- order and paging ----

/** Where a hit sits in the order: its time, then its workspace and key (all compared descending). */
export interface OrderKey {
  ts: string | null;
  /** Which workspace it came from ("" for the current one): keys repeat across workspaces. */
  where: string;
  key: string;
}

/** Negative when `a` comes first: newest first, undated last, then by workspace and key, descending. */
export function compareOrder(a: OrderKey, b: OrderKey): number {
  if (a.ts !== b.ts) {
    if (a.ts === null) return 1;
    if (b.ts === null) return -1;
    return a.ts > b.ts ? -1 : 1;
  }
  if (a.where !== b.where) return a.where > b.where ? -1 : 1;
  if (a.key !== b.key) return a.key > b.key ? -1 : 1;
  return 0;
}

/** An opaque cursor naming the last hit of a page: the next page starts just after it. */
export function encodeCursor(k: OrderKey): string {
  return Buffer.from(JSON.stringify([k.ts, k.where, k.key]), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): OrderKey {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(value) && value.length === 3 && (value[0] === null || typeof value[0] === "string") && typeof value[1] === "string" && typeof value[2] === "string") {
      return { ts: value[0], where: value[1], key: value[2] };
    }
  } catch {
    // reported below
  }
  throw new AopError("invalid_argument", "cursor is not one this search returned", { hint: "pass next_cursor from the previous page unchanged" });
}

/** The `capacity` first items in order seen so far (offered in any order); binary insertion. */
export class NewestPage<T extends OrderKey> {
  readonly items: T[] = [];
  constructor(
    private readonly capacity: number,
    private readonly after: OrderKey | null = null,
  ) {}

  /** Whether an item at `k` would be kept (callers skip building it otherwise). */
  wants(k: OrderKey): boolean {
    if (this.after && compareOrder(k, this.after) <= 0) return false;
    const last = this.items[this.items.length - 1];
    return this.items.length < this.capacity || (last !== undefined && compareOrder(k, last) < 0);
  }

  offer(item: T): void {
    if (!this.wants(item)) return;
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareOrder(this.items[mid]!, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, item);
    if (this.items.length > this.capacity) this.items.pop();
  }
}

// ---- --since ----

const RELATIVE = /^(\d{1,6})([mhdw])$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const ISO = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** `--since` as ISO UTC with milliseconds: an ISO date or time, or a span back from now (30m, 12h, 2d, 1w). */
export function parseSince(value: string, nowMs: number): string {
  const relative = RELATIVE.exec(value);
  if (relative) return new Date(nowMs - Number(relative[1]) * UNIT_MS[relative[2]!]!).toISOString();
  if (ISO.test(value)) {
    const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  throw new AopError("invalid_argument", `since must be an ISO date or time (2026-12-01, 2026-12-01T09:30:00Z) or a span back from now (30m, 12h, 2d, 1w); got '${value.slice(0, 80)}'`);
}
