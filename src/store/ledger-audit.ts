// A read-only look at the whole idempotency ledger for the doctor (docs/kernel.md, "Ledger retention"):
// how many records it holds against its retention, which files cannot be read, and which operations were
// interrupted (an intent with no record, whose call is no longer running). Never writes.
import fs from "node:fs";
import path from "node:path";
import { effectPath, effectState, type EffectState } from "./effect-journal.js";
import type { WorkspaceLayout } from "./layout.js";
import { LEDGER_RECORD_MAX_BYTES, parseIntent, recordProblem, type OperationIntent } from "./ledger-files.js";
import { INTENT_FILE, ledgerBuckets, RECORD_FILE, type LedgerRetention } from "./ledger-retention.js";
import { processIsAlive, readHolder } from "./lock-holder.js";
import { describeRefusal, readBytesBounded, readTextBounded, refusalCode } from "./read-text-bounded.js";
import { compareText } from "../core/compare-text.js";

/**
 * Which records' content an audit checks: the newest first, up to AUDIT_CONTENT_CHECKS of them, where a
 * record larger than AUDIT_SMALL_RECORD counts only while such records total AUDIT_CONTENT_BYTES. A doctor
 * run records its whole report (36 KB on the bench's workspace): with a count alone, 2,000 of them cost
 * every later doctor run ~300 ms, and with a byte bound alone they would crowd out the small records of
 * kernel calls, the ones a retry is most likely to read (docs/kernel.md).
 */
const AUDIT_CONTENT_CHECKS = 2_000;
const AUDIT_SMALL_RECORD = 4 * 1024;
const AUDIT_CONTENT_BYTES = 8 * 1024 * 1024;

export interface AuditBudget {
  records: number;
  smallRecord: number;
  largeBytes: number;
}

const AUDIT_BUDGET: AuditBudget = { records: AUDIT_CONTENT_CHECKS, smallRecord: AUDIT_SMALL_RECORD, largeBytes: AUDIT_CONTENT_BYTES };

interface InterruptedOperation {
  /** Workspace-relative path of the intent file. */
  path: string;
  intent: OperationIntent;
  effects: { path: string; state: EffectState }[];
}

export interface LedgerAudit {
  records: number;
  /** Records older than max_age_days (pruning catches up as calls are recorded). */
  expired: number;
  /** Files that cannot be read as what their name says, with why. */
  corrupt: { path: string; problem: string }[];
  interrupted: InterruptedOperation[];
}

function heldByLiveProcess(lockFile: string): boolean {
  const info = readHolder(lockFile);
  if (info === null) return false;
  if (info.holder === null) return true; // being written: treat as held
  return processIsAlive(info.holder.pid);
}

export function auditLedger(layout: WorkspaceLayout, retention: LedgerRetention, nowMs: number, budget: AuditBudget = AUDIT_BUDGET): LedgerAudit {
  const audit: LedgerAudit = { records: 0, expired: 0, corrupt: [], interrupted: [] };
  const oldest = nowMs - retention.max_age_days * 86_400_000;
  const records: { file: string; mtimeMs: number; size: number }[] = [];
  for (const bucket of ledgerBuckets(layout)) {
    const dir = layout.ledgerBucket(bucket);
    let names: string[];
    try {
      names = fs.readdirSync(dir).sort();
    } catch {
      continue;
    }
    const present = new Set(names);
    for (const name of names) {
      const file = path.join(dir, name);
      if (RECORD_FILE.test(name)) {
        audit.records += 1;
        let stat: fs.Stats;
        try {
          stat = fs.lstatSync(file);
        } catch {
          continue;
        }
        if (stat.mtimeMs < oldest) audit.expired += 1;
        records.push({ file, mtimeMs: stat.mtimeMs, size: stat.size });
      } else if (INTENT_FILE.test(name)) {
        const key = name.slice(0, 64);
        if (present.has(`${key}.json`) || heldByLiveProcess(path.join(dir, `${key}.json.lock`))) continue; // settled, or in flight
        const found = readIntentFile(layout, file);
        if ("problem" in found) audit.corrupt.push({ path: layout.relative(file), problem: found.problem });
        else if (found.interrupted) audit.interrupted.push(found.interrupted);
      }
    }
  }
  for (const { file } of recordsToCheck(records, budget)) {
    const problem = recordFileProblem(file);
    if (problem) audit.corrupt.push({ path: layout.relative(file), problem });
  }
  audit.corrupt.sort((a, b) => compareText(a.path, b.path));
  return audit;
}

/**
 * The records to check, newest first (by time, then name): up to `budget.records`, taking a record over
 * `budget.smallRecord` bytes only while those total at most `budget.largeBytes` (the newest large one
 * always). Pure.
 */
export function recordsToCheck<T extends { file: string; mtimeMs: number; size: number }>(records: readonly T[], budget: AuditBudget): T[] {
  const newest = [...records].sort((a, b) => b.mtimeMs - a.mtimeMs || compareText(a.file, b.file));
  const out: T[] = [];
  let large = 0;
  let anyLarge = false;
  for (const record of newest) {
    if (out.length >= budget.records) break;
    if (record.size > budget.smallRecord) {
      if (anyLarge && large + record.size > budget.largeBytes) continue; // older small records may follow
      anyLarge = true;
      large += record.size;
    }
    out.push(record);
  }
  return out;
}

function recordFileProblem(file: string): string | null {
  const read = readBytesBounded(file, LEDGER_RECORD_MAX_BYTES);
  if (read.status === "missing") return null; // pruned meanwhile
  if (read.status !== "ok") return `${describeRefusal(read)} [${refusalCode(read)}]`;
  try {
    return recordProblem(JSON.parse(read.bytes.toString("utf8")));
  } catch {
    return "is not valid JSON";
  }
}

function readIntentFile(layout: WorkspaceLayout, file: string): { interrupted: InterruptedOperation | null } | { problem: string } {
  const read = readTextBounded(file, LEDGER_RECORD_MAX_BYTES);
  if (read.status === "missing") return { interrupted: null };
  if (read.status !== "ok" || read.truncated || read.binary) return { problem: "cannot be read" };
  const { intent, effects, problem } = parseIntent(read.text);
  if (problem) return { problem };
  if (!intent) return { interrupted: null }; // its first line never completed: nothing ran
  return {
    interrupted: {
      path: layout.relative(file),
      intent,
      // A note naming a file outside the workspace was not written by aop: not read, not trusted.
      effects: effects.filter((e) => e.kind !== "scratch").map((e) => ({ path: layout.relative(effectPath(e)), state: layout.resolveInside(layout.relative(effectPath(e))) === null ? "changed_since" : effectState(e) })),
    },
  };
}
