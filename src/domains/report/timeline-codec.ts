// A run's entries in the compact column form embedded in the page (docs/report.md: strings once in a
// table, sequences and times as deltas), and back. Pure; shared by the writer and the page.
import type { IdempotencyStatus, TimelineEntry } from "../../catalog/timeline-entry.js";

/**
 * A timeline line as the report reads it: the entry's contract fields (the catalog's shape) with
 * `session_id` null where the line names the run itself (no session, DESIGN §21), the subagent fields
 * (null when absent) and the other extras (the sidecar's, or keys an older line held) as written.
 */
export interface TimelineRecord extends Omit<TimelineEntry, "session_id" | "agent_id" | "agent_type" | "marker" | "transport" | "request_hash_skipped" | "ext"> {
  session_id: string | null;
  agent_id: string | null;
  agent_type: string | null;
  /** Keys outside the contract, as written. */
  extra: Record<string, unknown> | null;
}

/** A decoded entry: a record whose time is kept as epoch ms (`ts_raw` only when that cannot give `ts` back). */
export interface ReportEntry extends Omit<TimelineRecord, "ts"> {
  /** Position in its run's entry list. */
  index: number;
  ts_ms: number;
  ts_raw: string | null;
}

export interface EncodedTimeline {
  v: 1;
  run_id: string;
  n: number;
  strings: string[];
  base_ms: number;
  /** Sequence deltas (the first is absolute). */
  seq: number[];
  /** Time deltas in ms from the previous entry (the first from base_ms). */
  t: number[];
  lat: number[];
  /** Indexes into `strings`; -1 for null. */
  tool: number[];
  session: number[];
  actor: number[];
  feature: number[];
  err: number[];
  agent: number[];
  agent_type: number[];
  /** 0 none, 1 new, 2 replay, 3 mismatch. */
  status: number[];
  /** FLAG_* bits. */
  flags: number[];
  op: (string | null)[];
  hash: (string | null)[];
  /** Entry index → the ts text, when it is not the ISO form of its instant. */
  raw_ts: Record<string, string>;
  /** Entry index → the run_id written on the line, when it is not the run's. */
  other_run: Record<string, string>;
  extra: Record<string, Record<string, unknown>>;
}

export const FLAG_ERROR = 1;
const FLAG_MUTATING = 2;
const FLAG_HASH_PREFIX = 4;
const STATUSES: IdempotencyStatus[] = ["none", "new", "replay", "mismatch"];
const HASH_PREFIX = "sha256:";

// A timestamp of this form is certainly what toISOString gives for its instant (days up to 28 and hours
// up to 23, which Date.parse never rolls over), so the costlier round trip is needed only for others.
const PLAIN_INSTANT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** The ts text of an entry. */
export function entryTimestamp(entry: Pick<ReportEntry, "ts_ms" | "ts_raw">): string {
  return entry.ts_raw ?? new Date(entry.ts_ms).toISOString();
}

export function encodeTimeline(runId: string, records: readonly TimelineRecord[]): EncodedTimeline {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const str = (s: string | null): number => {
    if (s === null) return -1;
    let id = ids.get(s);
    if (id === undefined) {
      id = strings.length;
      strings.push(s);
      ids.set(s, id);
    }
    return id;
  };
  const out: EncodedTimeline = {
    v: 1, run_id: runId, n: records.length, strings, base_ms: 0, seq: [], t: [], lat: [], tool: [], session: [], actor: [], feature: [], err: [],
    agent: [], agent_type: [], status: [], flags: [], op: [], hash: [], raw_ts: {}, other_run: {}, extra: {},
  };
  let prevSeq = 0;
  let prevMs: number | null = null;
  records.forEach((r, i) => {
    const parsed = Date.parse(r.ts);
    // An unparseable time keeps the previous entry's place on the time axis.
    const ms = Number.isNaN(parsed) ? (prevMs ?? 0) : parsed;
    if (prevMs === null) out.base_ms = ms;
    if (Number.isNaN(parsed) || (!PLAIN_INSTANT.test(r.ts) && new Date(ms).toISOString() !== r.ts)) out.raw_ts[i] = r.ts;
    out.t.push(ms - (prevMs ?? ms));
    prevMs = ms;
    out.seq.push(i === 0 ? r.sequence : r.sequence - prevSeq);
    prevSeq = r.sequence;
    out.lat.push(r.latency_ms);
    out.tool.push(str(r.tool_name));
    out.session.push(str(r.session_id));
    out.actor.push(str(r.actor_type));
    out.feature.push(str(r.feature_id));
    out.err.push(str(r.error_code));
    out.agent.push(str(r.agent_id));
    out.agent_type.push(str(r.agent_type));
    out.status.push(Math.max(0, STATUSES.indexOf(r.idempotency_status)));
    const prefixed = r.request_hash !== null && r.request_hash.startsWith(HASH_PREFIX);
    out.flags.push((r.result === "error" ? FLAG_ERROR : 0) | (r.mutating ? FLAG_MUTATING : 0) | (prefixed ? FLAG_HASH_PREFIX : 0));
    out.op.push(r.operation_id);
    out.hash.push(prefixed ? r.request_hash!.slice(HASH_PREFIX.length) : r.request_hash);
    if (r.run_id !== runId) out.other_run[i] = r.run_id;
    if (r.extra) out.extra[i] = r.extra;
  });
  return out;
}

export function decodeTimeline(encoded: EncodedTimeline, startIndex = 0): ReportEntry[] {
  const s = encoded.strings;
  const str = (id: number | undefined): string | null => (id === undefined || id < 0 ? null : (s[id] ?? null));
  const out: ReportEntry[] = new Array(encoded.n);
  let seq = 0;
  let ms = encoded.base_ms;
  for (let i = 0; i < encoded.n; i++) {
    seq = i === 0 ? encoded.seq[0]! : seq + encoded.seq[i]!;
    ms += encoded.t[i]!;
    const flags = encoded.flags[i]!;
    const hash = encoded.hash[i] ?? null;
    out[i] = {
      index: startIndex + i,
      sequence: seq,
      ts_ms: ms,
      ts_raw: encoded.raw_ts[i] ?? null,
      run_id: encoded.other_run[i] ?? encoded.run_id,
      session_id: str(encoded.session[i]),
      actor_type: str(encoded.actor[i]) ?? "",
      feature_id: str(encoded.feature[i]),
      tool_name: str(encoded.tool[i]) ?? "",
      mutating: (flags & FLAG_MUTATING) !== 0,
      operation_id: encoded.op[i] ?? null,
      idempotency_status: STATUSES[encoded.status[i]!] ?? "none",
      request_hash: hash !== null && (flags & FLAG_HASH_PREFIX) !== 0 ? HASH_PREFIX + hash : hash,
      result: (flags & FLAG_ERROR) !== 0 ? "error" : "ok",
      error_code: str(encoded.err[i]),
      latency_ms: encoded.lat[i]!,
      agent_id: str(encoded.agent[i]),
      agent_type: str(encoded.agent_type[i]),
      extra: encoded.extra[i] ?? null,
    };
  }
  return out;
}
