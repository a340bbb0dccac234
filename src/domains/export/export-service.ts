// Exports runs incrementally: under the (run, target) cursor's lock, read the run's entries from the
// cursor on, build their spans, send them in batches, and move the cursor after each delivered batch
// (docs/otel.md, "Incremental export"). The enclosing root and subagent spans ride with the last batch.
import type { Clock } from "../../core/clock.js";
import { AopError } from "../../core/errors.js";
import { assertContained } from "../../store/containment.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { acquireLock } from "../../store/lock.js";
import { ensureWorkspaceIdentity } from "../../store/workspace-identity.js";
import { readEntriesFrom } from "../replay/index.js";
import { freshCursor, readCursor, targetKey, writeCursor, type ExportCursor } from "./export-cursor.js";
import type { Delivery } from "./export-delivery.js";
import { gateEvidenceLookup } from "./gate-evidence.js";
import { OtlpEncoder } from "./otlp-encode.js";
import { RunSpanBuilder, type EnvelopeState } from "./run-spans.js";
import { traceIdFor } from "./span-ids.js";
import type { SpanRecord } from "./span-record.js";

/** @public */
export const DEFAULT_BATCH_ENTRIES = 1_000;
/** Another export of the same run to the same target holds the lock while it sends one pass. */
const LOCK_TIMEOUT_MS = 120_000;

export interface ExportOptions {
  layout: WorkspaceLayout;
  clock: Clock;
  delivery: Delivery;
  /** The records' workspace when they are a pulled one's (docs/handoff.md); else this workspace's, created on first need. */
  workspaceId?: string;
  serviceVersion: string;
  /** Entries per request (each request also carries their gate steps, and the last the enclosing spans). */
  batchEntries?: number;
  /** Build and encode, but send nothing and leave the cursor (--dry-run): batches go to `onBatch`. */
  dryRun?: boolean;
  /** Awaited before the next batch is built (a dry run's output keeps pace with the export). */
  onBatch?: (batch: { runId: string; spans: readonly SpanRecord[]; body: Uint8Array }) => void | Promise<void>;
  /** After each delivered batch: spans of the run sent so far in this pass. */
  onProgress?: (runId: string, spansSent: number) => void;
  /** Stops the pass: the request in flight is aborted and no batch starts after it (--follow's signals). */
  signal?: AbortSignal;
}

export interface RunExport {
  run_id: string;
  trace_id: string;
  /** The first sequence this pass looked at, and the first it leaves for the next one. */
  from_sequence: number;
  next_sequence: number;
  entries: number;
  spans: number;
  gate_steps: number;
  /** Gate runs whose evidence file changed after it was chained: their verdict is the timeline's, without steps. */
  evidence_modified: number;
  /** Entries that are Claude Code session markers (spans of no duration). */
  markers: number;
  enclosing_spans: number;
  requests: number;
  attempts: number;
  /** Entries whose `ts` is not a time: they cannot be placed on a timeline and are left out. */
  unplaced_entries: number;
  /** Spans the receiver said it rejected (OTLP partial success). */
  rejected_spans: number;
  reject_message: string | null;
}

/** Export the entries of `runId` the target has not received yet. */
export async function exportRun(options: ExportOptions, runId: string): Promise<RunExport> {
  const { layout, delivery } = options;
  const key = targetKey(delivery.identity);
  // Asked for only once there is a run to export, which means .aop/ exists: a folder that is no
  // workspace is never made one (the identity is created on first need).
  const workspaceId = options.workspaceId ?? (await ensureWorkspaceIdentity(layout, options.clock)).identity.workspace_id;
  const traceId = traceIdFor(workspaceId, runId);
  const pass = () => exportPass(options, workspaceId, runId, key, readTargetCursor(options, runId, key, traceId));
  if (options.dryRun) return pass();
  const lockFile = layout.lockFor(layout.exportCursor(runId, key));
  assertContained(lockFile);
  const release = await acquireLock(lockFile, { timeoutMs: LOCK_TIMEOUT_MS, staleMs: Infinity });
  try {
    return await pass();
  } finally {
    release();
  }
}

function stopped(runId: string, where: string): AopError {
  return new AopError("export_failed", `export of ${runId} to ${where} was interrupted`, { details: { interrupted: true }, hint: "the cursor holds what was delivered: the next export sends the rest" });
}

function readTargetCursor(options: ExportOptions, runId: string, key: string, traceId: string): ExportCursor {
  const cursor = readCursor(options.layout, runId, key, options.delivery.display, traceId);
  // A hand-over file that was removed or cut short no longer holds what the cursor says it does.
  const size = options.delivery.currentSize?.();
  if (size !== undefined && cursor.file_size !== undefined && (size === null || size < cursor.file_size)) return freshCursor(runId, options.delivery.display, traceId);
  return cursor;
}

async function exportPass(options: ExportOptions, workspaceId: string, runId: string, key: string, start: ExportCursor): Promise<RunExport> {
  const { layout, delivery } = options;
  const batchEntries = options.batchEntries ?? DEFAULT_BATCH_ENTRIES;
  const encoder = new OtlpEncoder(options.serviceVersion);
  // One judge per pass: it reads each feature's chain once, and a later pass sees chains as they are then.
  const builder = new RunSpanBuilder(workspaceId, runId, start.envelopes, gateEvidenceLookup(layout));
  const result: RunExport = {
    run_id: runId, trace_id: builder.traceId, from_sequence: start.next_sequence, next_sequence: start.next_sequence, entries: 0, spans: 0,
    gate_steps: 0, evidence_modified: 0, markers: 0, enclosing_spans: 0, requests: 0, attempts: 0, unplaced_entries: 0, rejected_spans: 0, reject_message: null,
  };
  let cursor = start;
  let batch: SpanRecord[] = [];
  let batchEntryCount = 0;
  let lastSequence = -1;

  // One request in flight while the next batch is built and encoded; deliveries, and the cursor writes
  // after them, stay in order (docs/performance.md, "OTLP export").
  let inflight: Promise<void> | null = null;

  const commit = async (body: Uint8Array | null, spans: number, envelopes: number, next: number, state: EnvelopeState): Promise<void> => {
    if (body !== null && !options.dryRun) {
      const delivered = await delivery.send(body, options.signal);
      result.attempts += delivered.attempts;
      result.rejected_spans += delivered.rejected;
      if (delivered.rejectMessage) result.reject_message = delivered.rejectMessage;
    }
    if (body !== null) {
      result.requests += 1;
      result.spans += spans;
      result.enclosing_spans += envelopes;
    }
    const moved = next !== cursor.next_sequence || envelopes > 0;
    cursor = { ...cursor, next_sequence: next, spans_sent: cursor.spans_sent + spans, envelopes: state };
    const size = delivery.currentSize?.();
    if (size !== undefined && size !== null) cursor.file_size = size;
    if (moved && !options.dryRun) writeCursor(layout, key, cursor, options.clock);
    result.next_sequence = next;
    options.onProgress?.(runId, result.spans);
  };

  const send = async (spans: SpanRecord[], final: boolean): Promise<void> => {
    const envelopes = final ? builder.pendingEnvelopes() : [];
    const state = final ? builder.stateAfterSending() : builder.currentState();
    const all = envelopes.length > 0 ? [...spans, ...envelopes] : spans;
    const next = Math.max(lastSequence + 1, start.next_sequence);
    let body: Uint8Array | null = null;
    if (all.length > 0) {
      body = encoder.encode(all, delivery.protocol);
      await options.onBatch?.({ runId, spans: all, body });
    }
    if (inflight) await inflight;
    // Stopped: nothing after the batches already delivered is sent, and their cursor writes are done.
    if (options.signal?.aborted) throw stopped(runId, delivery.display);
    inflight = commit(body, all.length, envelopes.length, next, state);
    // Handled here so a failure waiting to be awaited is not an unhandled rejection; awaiting it rethrows.
    inflight.catch(() => undefined);
  };

  for await (const entry of readEntriesFrom(layout, runId, start.next_sequence)) {
    // A full batch goes out when the next entry shows it is not the last one: the last batch carries
    // the enclosing spans, so a run ending on a full batch needs no extra request.
    if (batchEntryCount >= batchEntries) {
      await send(batch, false);
      batch = [];
      batchEntryCount = 0;
    }
    const spans = builder.add(entry);
    lastSequence = entry.sequence;
    result.entries += 1;
    for (const span of spans) batch.push(span);
    batchEntryCount += 1;
  }
  await send(batch, true);
  await inflight;
  result.gate_steps = builder.steps;
  result.evidence_modified = builder.evidenceModified;
  result.markers = builder.markers;
  result.unplaced_entries = builder.unplaced;
  return result;
}
