// One timeline line (docs/replay.md): the fields' order, and how to read lines written by others; the
// shape itself is the catalog's (catalog/timeline-entry.ts). Pure.
import type { CompletedCall } from "../../catalog/timeline-hook.js";
import type { TimelineEntry, TimelineExt } from "../../catalog/timeline-entry.js";
import { isoUtc } from "../../core/clock.js";

export type { TimelineEntry, TimelineExt };

/**
 * Extras with a name of their own on a read entry. They are never written into the timeline line: the
 * writer puts them, with `ext`, into the run's sidecar (timeline-ext.ts), and readers join them back.
 */
const OPTIONAL_ENTRY_KEYS = ["agent_id", "agent_type", "marker", "transport", "request_hash_skipped"] as const;

export const ENTRY_KEYS: (keyof TimelineEntry)[] = [
  "ts", "sequence", "run_id", "session_id", "actor_type", "feature_id", "tool_name", "mutating",
  "operation_id", "idempotency_status", "request_hash", "result", "error_code", "latency_ms",
];

/** The entry for a completed call, minus its sequence (allocated by the writer under the run's lock). */
export type EntryWithoutSequence = Omit<TimelineEntry, "sequence">;

export function entryFromCall(call: CompletedCall): EntryWithoutSequence {
  const envelope = call.envelope;
  return {
    ts: isoUtc(call.completed_at),
    run_id: call.identity.run_id,
    session_id: call.identity.session_id ?? call.identity.run_id,
    actor_type: call.identity.actor_type,
    feature_id: call.feature_id,
    tool_name: call.tool_name,
    mutating: call.mutating,
    operation_id: call.operation_id,
    idempotency_status: call.idempotency_status,
    request_hash: call.mutating ? call.request_hash : null,
    result: envelope.ok ? "ok" : "error",
    error_code: envelope.ok ? null : envelope.error.code,
    latency_ms: call.latency_ms,
  };
}

/** A latency as the seed's line has it: a whole number of milliseconds ≥ 0. */
function wholeMs(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : 0;
}

/**
 * The JSONL line (with `\n`) for an entry: exactly the contract's 14 keys in its order, `session_id` a
 * string (the run's id when there is none), `latency_ms` a whole number — the line upstream reads.
 * Extras go to the sidecar (serializeExt).
 */
export function serializeEntry(entry: EntryWithoutSequence, sequence: number): string {
  // Built by hand rather than by object spread so the key order can never drift.
  return (
    `{"ts":${JSON.stringify(entry.ts)},"sequence":${sequence},"run_id":${JSON.stringify(entry.run_id)},` +
    `"session_id":${JSON.stringify(entry.session_id ?? entry.run_id)},"actor_type":${JSON.stringify(entry.actor_type)},` +
    `"feature_id":${JSON.stringify(entry.feature_id)},"tool_name":${JSON.stringify(entry.tool_name)},` +
    `"mutating":${entry.mutating},"operation_id":${JSON.stringify(entry.operation_id)},` +
    `"idempotency_status":${JSON.stringify(entry.idempotency_status)},"request_hash":${JSON.stringify(entry.request_hash)},` +
    `"result":${JSON.stringify(entry.result)},"error_code":${JSON.stringify(entry.error_code)},"latency_ms":${wholeMs(entry.latency_ms)}}\n`
  );
}

/** An entry's extras (its named optional keys, then `ext`), or null when it has none. */
export function extrasOf(entry: EntryWithoutSequence): TimelineExt | null {
  let out: TimelineExt | null = null;
  for (const key of OPTIONAL_ENTRY_KEYS) if (typeof entry[key] === "string") (out ??= {})[key] = entry[key] as string;
  if (entry.ext) for (const [key, value] of Object.entries(entry.ext)) if (key !== "sequence" && isScalar(value)) (out ??= {})[key] = value;
  return out;
}

/** The sidecar line (with `\n`) holding an entry's extras: `{sequence, …}`. */
export function serializeExt(sequence: number, extras: TimelineExt): string {
  return JSON.stringify({ sequence, ...extras }) + "\n";
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

/** Joins a sidecar line's extras onto an entry read from the timeline (named keys flat, the rest under `ext`). */
export function joinExtras(entry: TimelineEntry, extras: Record<string, unknown> | undefined): TimelineEntry {
  if (!extras) return entry;
  for (const [key, value] of Object.entries(extras)) {
    if (key === "sequence" || !isScalar(value)) continue;
    if ((OPTIONAL_ENTRY_KEYS as readonly string[]).includes(key)) {
      if (typeof value === "string") entry[key as (typeof OPTIONAL_ENTRY_KEYS)[number]] = value;
    } else (entry.ext ??= {})[key] = value;
  }
  return entry;
}

/**
 * The test of a timeline entry: a parsed line is one when it is an object whose `sequence` is a whole
 * number ≥ 0 and whose `tool_name` is a string. Its sequence, or null when it is not an entry (the
 * audit counts it as invalid without building the entry).
 */
export function entrySequence(value: unknown): number | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as { sequence?: unknown; tool_name?: unknown };
  if (typeof v.sequence !== "number" || !Number.isInteger(v.sequence) || v.sequence < 0 || typeof v.tool_name !== "string") return null;
  return v.sequence;
}

/**
 * A parsed line as an entry, or null when it is not one (counted as invalid by readers).
 * Tolerates the upstream orchestrator's lines (missing optional keys become null, bare-hex hashes are
 * kept) and aop's older lines: a null session becomes the run's id, a fractional latency is rounded,
 * and extras written into the line itself are read as if they came from the sidecar.
 */
export function asEntry(value: unknown): TimelineEntry | null {
  const sequence = entrySequence(value);
  if (sequence === null) return null;
  const v = value as Record<string, unknown>;
  const str = (x: unknown): string | null => (typeof x === "string" ? x : null);
  const status = v.idempotency_status;
  const entry: TimelineEntry = {
    ts: str(v.ts) ?? "",
    sequence,
    run_id: str(v.run_id) ?? "",
    session_id: str(v.session_id) ?? str(v.run_id) ?? "",
    actor_type: str(v.actor_type) ?? "",
    feature_id: str(v.feature_id),
    tool_name: v.tool_name as string,
    mutating: v.mutating === true,
    operation_id: str(v.operation_id),
    idempotency_status: status === "new" || status === "replay" || status === "mismatch" ? status : "none",
    request_hash: str(v.request_hash),
    result: v.result === "error" ? "error" : "ok",
    error_code: str(v.error_code),
    latency_ms: typeof v.latency_ms === "number" ? wholeMs(v.latency_ms) : 0,
  };
  for (const key of OPTIONAL_ENTRY_KEYS) if (typeof v[key] === "string") entry[key] = v[key] as string;
  if (v.ext !== null && typeof v.ext === "object" && !Array.isArray(v.ext)) joinExtras(entry, v.ext as Record<string, unknown>);
  return entry;
}
