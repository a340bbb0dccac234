// How far a run's export to one target got: one small file per (run, target) under
// .aop/runtime/export/, rewritten atomically (mode 0600) after each delivered request and never
// before, so a failed export loses nothing. It holds no URL query, user info or header value.
import { AopError } from "../../core/errors.js";
import { sha256Hex } from "../../core/hash.js";
import { nowIso, type Clock } from "../../core/clock.js";
import { writeJsonAtomic } from "../../store/atomic-write.js";
import { assertContained } from "../../store/containment.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { describeRefusal, readTextBounded } from "../../store/read-text-bounded.js";
import { emptyEnvelopes, type EnvelopeState } from "./run-spans.js";

export interface ExportCursor {
  version: 1;
  run_id: string;
  /**
   * The trace the positions below belong to. A cursor of another trace (copied with the workspace from
   * elsewhere, or written before trace ids included the workspace id) says nothing about this one.
   */
  trace_id: string;
  /** The target as it may be shown (redacted URL, or the output file). */
  target: string;
  /** The first sequence not delivered yet. */
  next_sequence: number;
  spans_sent: number;
  envelopes: EnvelopeState;
  /** File targets: the file's size after the last delivered batch. */
  file_size?: number;
  updated_at: string | null;
}

const MAX_CURSOR_BYTES = 4 * 1024 * 1024;

/** The key of a target in cursor file names: 16 hex characters of sha256 of its identity. */
export function targetKey(identity: string): string {
  return sha256Hex(identity).slice(0, 16);
}

export function freshCursor(runId: string, target: string, traceId: string): ExportCursor {
  return { version: 1, run_id: runId, trace_id: traceId, target, next_sequence: 0, spans_sent: 0, envelopes: emptyEnvelopes(), updated_at: null };
}

function corrupt(layout: WorkspaceLayout, file: string, why: string): AopError {
  return new AopError("file_corrupt", `export cursor ${layout.relative(file)} ${why}`, {
    details: { path: layout.relative(file) },
    hint: "delete it to export the run to this target again from the start (spans keep their ids, so a backend sees the same spans)",
  });
}

function isCursor(value: unknown, runId: string): value is ExportCursor {
  if (value === null || typeof value !== "object") return false;
  const v = value as Partial<ExportCursor>;
  const int = (x: unknown) => typeof x === "number" && Number.isInteger(x) && x >= 0;
  const envelopes = v.envelopes as Partial<EnvelopeState> | undefined;
  const traceId = v.trace_id === undefined || (typeof v.trace_id === "string" && /^[0-9a-f]{32}$/.test(v.trace_id));
  return v.version === 1 && v.run_id === runId && traceId && int(v.next_sequence) && int(v.spans_sent) &&
    envelopes !== undefined && envelopes !== null && typeof envelopes === "object" && (envelopes.root === null || typeof envelopes.root === "object") &&
    envelopes.agents !== null && typeof envelopes.agents === "object";
}

/** The cursor of the run's trace `traceId` to one target: fresh when there is none, or it belongs to another trace. */
export function readCursor(layout: WorkspaceLayout, runId: string, key: string, target: string, traceId: string): ExportCursor {
  const file = layout.exportCursor(runId, key);
  assertContained(file);
  const read = readTextBounded(file, MAX_CURSOR_BYTES);
  if (read.status === "missing") return freshCursor(runId, target, traceId);
  if (read.status !== "ok") throw corrupt(layout, file, describeRefusal(read));
  if (read.truncated || read.binary) throw corrupt(layout, file, read.truncated ? `is over ${MAX_CURSOR_BYTES} bytes` : "is not text");
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch {
    throw corrupt(layout, file, "is not JSON");
  }
  if (!isCursor(value, runId)) throw corrupt(layout, file, "is not an export cursor for this run");
  // The target never received this trace: the run goes to it again from the start, under this trace's ids.
  if (value.trace_id !== traceId) return freshCursor(runId, target, traceId);
  return { ...value, target };
}

export function writeCursor(layout: WorkspaceLayout, key: string, cursor: ExportCursor, clock: Clock): void {
  const file = layout.exportCursor(cursor.run_id, key);
  assertContained(file);
  // Atomic but not fsynced: a cursor lost to a crash only falls back to an older position, and
  // re-sending spans with the same ids loses nothing (docs/otel.md, "Incremental export").
  writeJsonAtomic(file, { ...cursor, updated_at: nowIso(clock) }, { durable: false });
}
