// Ledger retention (policy idempotency.retention, docs/kernel.md "Ledger retention"), pruned in small steps:
// one record in 16 (chosen by its key) triggers a look at its own fan-out folder only, never the whole
// ledger. Each folder keeps at most ceil(max_records / 256) records, so the ledger holds about max_records.
import fs from "node:fs";
import { assertContained } from "./containment.js";
import type { WorkspaceLayout } from "./layout.js";
import { compareText } from "../core/compare-text.js";

export interface LedgerRetention {
  max_age_days: number;
  max_records: number;
}

const LEDGER_BUCKETS = 256;
/** Work bound of one step: folder entries looked at. */
export const PRUNE_STEP_MAX_ENTRIES = 4096;

const DAY_MS = 86_400_000;
const RECORD = /^[0-9a-f]{64}\.json$/;
const INTENT = /^[0-9a-f]{64}\.intent\.jsonl$/;

/** Whether writing the record with this key also prunes its folder (one key in 16). */
export function pruneStepDue(key: string): boolean {
  return key.charCodeAt(2) === 0x30; // third hex digit is "0"
}

export function bucketQuota(retention: LedgerRetention): number {
  return Math.max(1, Math.ceil(retention.max_records / LEDGER_BUCKETS));
}

export interface PruneOutcome {
  scanned: number;
  removed: number;
}

interface Candidate {
  name: string;
  mtimeMs: number;
}

function lockHeld(lockPath: string): boolean {
  return fs.existsSync(lockPath);
}

/**
 * One prune step over one fan-out folder: records older than max_age_days go, then the oldest beyond the
 * folder's quota; intents older than max_age_days go when no call holds their lock. `keepName` (the record
 * just written) is never removed. Ages are file modification times against the system clock.
 */
export function pruneLedgerBucket(layout: WorkspaceLayout, bucketHex: string, retention: LedgerRetention, nowMs: number, keepKey?: string): PruneOutcome {
  const dir = layout.ledgerBucket(bucketHex);
  assertContained(dir); // its files are removed: never through a folder link out of the workspace
  let names: string[];
  try {
    names = fs.readdirSync(dir).slice(0, PRUNE_STEP_MAX_ENTRIES);
  } catch {
    return { scanned: 0, removed: 0 };
  }
  const oldest = nowMs - retention.max_age_days * DAY_MS;
  const keep = keepKey ? `${keepKey}.json` : null;
  const records: Candidate[] = [];
  let removed = 0;
  const remove = (name: string) => {
    fs.rmSync(`${dir}/${name}`, { force: true });
    removed += 1;
  };
  for (const name of names) {
    const isRecord = RECORD.test(name);
    if (!isRecord && !INTENT.test(name)) continue;
    let mtimeMs: number;
    try {
      mtimeMs = fs.lstatSync(`${dir}/${name}`).mtimeMs;
    } catch {
      continue;
    }
    if (isRecord) {
      if (name === keep) continue;
      if (mtimeMs < oldest) remove(name);
      else records.push({ name, mtimeMs });
    } else if (mtimeMs < oldest && !lockHeld(layout.lockFor(`${dir}/${name.replace(".intent.jsonl", ".json")}`))) {
      remove(name);
    }
  }
  const quota = bucketQuota(retention) - (keep && names.includes(keep) ? 1 : 0);
  if (records.length > quota) {
    records.sort((a, b) => a.mtimeMs - b.mtimeMs || compareText(a.name, b.name));
    for (const r of records.slice(0, records.length - Math.max(0, quota))) remove(r.name);
  }
  return { scanned: names.length, removed };
}

/** The fan-out folders that exist, in order (upstream files directly under the ledger folder are not ours). */
export function ledgerBuckets(layout: WorkspaceLayout): string[] {
  try {
    return fs
      .readdirSync(layout.ledgerDir)
      .filter((n) => /^[0-9a-f]{2}$/.test(n))
      .sort();
  } catch {
    return [];
  }
}

export const RECORD_FILE = RECORD;
export const INTENT_FILE = INTENT;
