// The idempotency ledger on disk (docs/kernel.md, "Idempotency ledger format"): per operation id, a
// record (`<key>.json`, the final envelope) or, while the call runs or after it was killed, an intent
// (`<key>.intent.jsonl`: who started it, then one line per effect noted before it happened).
import fs from "node:fs";
import os from "node:os";
import { AopError } from "../core/errors.js";
import { sha256Hex } from "../core/hash.js";
import path from "node:path";
import { ensureDir, fsyncDir, openForWriting, removeFile, writeAll, writeJsonAtomic } from "./atomic-write.js";
import { crashPoint } from "./crash-points.js";
import type { EffectNote, EffectSink } from "./effect-journal.js";
import { defaultFileMode, type WorkspaceLayout } from "./layout.js";
import { READ_LIMITS } from "./read-limits.js";
import { describeRefusal, readBytesBounded, readTextBounded, refusalCode } from "./read-text-bounded.js";

export interface LedgerRecord {
  operation_id: string;
  tool_name: string;
  request_hash: string;
  run_id: string;
  recorded_at: string;
  /** The final envelope exactly as returned the first time; replays return these bytes. */
  envelope_json: string;
}

/** The first line of an intent: the call as it started. */
export interface OperationIntent {
  operation_id: string;
  tool_name: string;
  request_hash: string;
  run_id: string;
  session_id: string | null;
  actor_type: string;
  feature_id: string | null;
  started_at: string;
  pid: number;
  hostname: string;
}

export type LedgerEntry = { kind: "record"; record: LedgerRecord } | { kind: "intent"; intent: OperationIntent; effects: EffectNote[] } | { kind: "none" };

/** Records hold whole envelopes (a doctor report, a checkpoint): generous, but bounded. */
export const LEDGER_RECORD_MAX_BYTES = READ_LIMITS.ledgerRecord;

export function ledgerKey(operationId: string): string {
  return sha256Hex(operationId);
}

export function recordPath(layout: WorkspaceLayout, operationId: string): string {
  return layout.ledgerRecord(ledgerKey(operationId));
}

export function intentPath(layout: WorkspaceLayout, operationId: string): string {
  return layout.ledgerIntent(ledgerKey(operationId));
}

function corrupt(layout: WorkspaceLayout, file: string, why: string, operationId?: string): AopError {
  const rel = layout.relative(file);
  return new AopError("file_corrupt", `idempotency ${file.endsWith(".json") ? "record" : "intent"} ${rel} ${why}`, {
    details: { path: rel, ...(operationId ? { operation_id: operationId } : {}) },
    hint: "this operation ran before but what it did cannot be read: use a new operation_id, or delete the file to let this one run again (it may then apply twice); `aop doctor` lists such files",
  });
}

/** Why a parsed value is not a ledger record, or null. */
export function recordProblem(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "is not a JSON object";
  const r = value as Record<string, unknown>;
  for (const key of ["operation_id", "tool_name", "request_hash", "envelope_json"] as const) if (typeof r[key] !== "string") return `has no ${key}`;
  try {
    JSON.parse(r.envelope_json as string);
  } catch {
    return "holds an envelope that is not JSON";
  }
  return null;
}

/** The record of `operationId`, or null; a record that cannot be read is `file_corrupt` (never re-run silently). */
export function readRecord(layout: WorkspaceLayout, operationId: string): LedgerRecord | null {
  const file = recordPath(layout, operationId);
  const read = readBytesBounded(file, LEDGER_RECORD_MAX_BYTES);
  if (read.status === "missing") return null;
  if (read.status !== "ok") throw corrupt(layout, file, `${describeRefusal(read)} [${refusalCode(read)}]`, operationId);
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    throw corrupt(layout, file, "is not valid JSON", operationId);
  }
  const problem = recordProblem(value);
  if (problem) throw corrupt(layout, file, problem, operationId);
  return value as LedgerRecord;
}

export function writeRecord(layout: WorkspaceLayout, record: LedgerRecord): void {
  writeJsonAtomic(recordPath(layout, record.operation_id), record);
}

/** Parse an intent file's text. A torn last line is an effect whose note never completed (so never performed). */
export function parseIntent(text: string): { intent: OperationIntent | null; effects: EffectNote[]; problem: string | null } {
  const lines = text.split("\n");
  lines.pop(); // "" when the text ends with a newline, else a line whose write never completed
  const parsed: unknown[] = [];
  for (const [i, line] of lines.entries()) {
    try {
      parsed.push(JSON.parse(line));
    } catch {
      return { intent: null, effects: [], problem: `line ${i + 1} is not valid JSON` };
    }
  }
  if (parsed.length === 0) return { intent: null, effects: [], problem: null };
  const head = parsed[0] as { intent?: OperationIntent };
  if (!head || typeof head.intent !== "object" || head.intent === null || typeof head.intent.request_hash !== "string") return { intent: null, effects: [], problem: "line 1 is not an intent" };
  const effects: EffectNote[] = [];
  for (const [i, value] of parsed.slice(1).entries()) {
    const effect = (value as { effect?: EffectNote })?.effect;
    if (!effect || typeof effect !== "object" || typeof effect.kind !== "string") return { intent: null, effects: [], problem: `line ${i + 2} is not an effect` };
    effects.push(effect);
  }
  return { intent: head.intent, effects, problem: null };
}

/** What the ledger knows about `operationId`: a record wins over a leftover intent. */
export function readLedgerEntry(layout: WorkspaceLayout, operationId: string): LedgerEntry {
  const record = readRecord(layout, operationId);
  if (record) return { kind: "record", record };
  const file = intentPath(layout, operationId);
  const read = readTextBounded(file, LEDGER_RECORD_MAX_BYTES);
  if (read.status === "missing") return { kind: "none" };
  if (read.status !== "ok" || read.truncated || read.binary) throw corrupt(layout, file, "cannot be read", operationId);
  const { intent, effects, problem } = parseIntent(read.text);
  if (problem) throw corrupt(layout, file, problem, operationId);
  // An intent whose first line never completed was never durable, so its handler never started.
  return intent ? { kind: "intent", intent, effects } : { kind: "none" };
}

export function removeIntent(layout: WorkspaceLayout, operationId: string): void {
  removeFile(intentPath(layout, operationId));
}

/**
 * The intent file of a call in flight, open for appending. Nothing needs protecting until the handler's
 * first effect, so the intent line is made durable (file and folder) with the first effect's note; every
 * note is fdatasynced before the effect it announces happens.
 */
export class IntentJournal implements EffectSink {
  private fd: number | null;
  private durable: boolean;
  /** The effects noted through this journal (not those of an earlier attempt it continues). */
  readonly notes: EffectNote[] = [];

  private constructor(
    readonly file: string,
    readonly intent: OperationIntent,
    fd: number,
    durable: boolean,
  ) {
    this.fd = fd;
    this.durable = durable;
  }

  /** Start (or, for a call finished by its retry, continue) the intent of `intent.operation_id`. */
  static open(layout: WorkspaceLayout, intent: Omit<OperationIntent, "pid" | "hostname"> | OperationIntent, options: { continuing: boolean }): IntentJournal {
    const file = intentPath(layout, intent.operation_id);
    ensureDir(path.dirname(file));
    const full: OperationIntent = options.continuing && "pid" in intent ? intent : { ...intent, pid: process.pid, hostname: os.hostname() };
    const journal = new IntentJournal(file, full, openForWriting(file, options.continuing ? "append" : "truncate", defaultFileMode(file)), options.continuing);
    if (!options.continuing) {
      journal.line({ intent: full });
      crashPoint("ledger:after-intent", file);
    }
    return journal;
  }

  note(effect: EffectNote): void {
    this.notes.push(effect);
    this.line({ effect });
    fs.fdatasyncSync(this.fd!);
    if (!this.durable) {
      fsyncDir(path.dirname(this.file));
      this.durable = true;
    }
    crashPoint("journal:after-note", effect.kind === "move" ? effect.to : effect.path);
  }

  private line(value: unknown): void {
    if (this.fd === null) throw new Error("intent journal is closed");
    writeAll(this.fd, JSON.stringify(value) + "\n", this.file);
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}
