// Appends to a feature's integrity chain (chain.jsonl + manifest.integrity.json) under its lock.
// An append reads only the manifest and the chain's last line(s), so its cost does not grow with the chain.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import { sha256FileOrNull } from "../../store/file-hash.js";
import { appendJsonLine, readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { buildChainEntry, chainEntryProblem, chainLine, GENESIS_HASH, recomputeChainHash, type ChainEntry } from "./chain-hash.js";
import { readManifest, writeManifest, type ChainManifest } from "./chain-manifest.js";
import { readJsonlTail, readJsonlTailForAppend } from "../../store/jsonl-tail.js";

/** The per-feature evidence lock: chain appends, latest-* copies and verification snapshots take it. */
export function evidenceLockPath(layout: WorkspaceLayout, featureId: string): string {
  return layout.lockFor(layout.chainFile(featureId));
}

/** How many uncounted entries an append will count after a crash before it refuses instead. */
const MAX_MANIFEST_LAG = 10_000;

function chainRefused(layout: WorkspaceLayout, featureId: string, reason: string): AopError {
  return new AopError("evidence_chain_discontinuity", `${layout.relative(layout.chainFile(featureId))}: ${reason}; nothing was appended`, {
    details: { feature_id: featureId },
    hint: `run \`aop evidence verify --feature-id ${featureId}\` to locate the problem; the chain is never rewritten automatically`,
  });
}

export interface AppendOptions {
  /** Told when the chain is repaired (torn tail removed, uncounted entries counted). */
  warn?: (message: string) => void;
  /** fdatasync the chain line (default true; tests and benchmark set-up turn it off). */
  durable?: boolean;
}

function parseEntry(line: string): ChainEntry | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "is not valid JSON";
  }
  return chainEntryProblem(value) ?? (value as ChainEntry);
}

/**
 * True when `lines` (oldest first) continue the recorded head consistently: each entry recomputes, links
 * to the one before, and the sequences run on from the manifest's count.
 */
function continuesHead(lines: string[], recorded: { entry_count: number; head_hash: string }): boolean {
  let prev = GENESIS_HASH;
  let expected = recorded.entry_count > 0 ? recorded.entry_count - 1 : 0;
  for (const [i, line] of lines.entries()) {
    const entry = parseEntry(line);
    if (typeof entry === "string") return false;
    if (i === 0 && recorded.entry_count > 0) {
      if (entry.sequence !== expected || entry.chain_hash !== recorded.head_hash) return false;
    } else if (entry.sequence !== expected || entry.prev_chain_hash !== prev || recomputeChainHash(entry) !== entry.chain_hash) {
      return false;
    }
    prev = entry.chain_hash;
    expected++;
  }
  return true;
}

/**
 * Where the next entry goes, checked against the manifest. Only the states an interrupted append can leave
 * are accepted: a torn final line (cut off) and entries the manifest does not count yet but that continue
 * its head consistently (counted). Any other disagreement is refused rather than laundered into a new head.
 */
function nextPosition(layout: WorkspaceLayout, featureId: string, options: AppendOptions): { sequence: number; prev: string; manifest: ChainManifest | null } {
  const { view, manifest } = readManifest(layout, featureId);
  if (view.status === "unreadable") throw chainRefused(layout, featureId, `the manifest cannot be trusted: ${view.reason}`);
  const recorded = manifest ?? { entry_count: 0, head_hash: GENESIS_HASH };
  const file = layout.chainFile(featureId);
  const tail = readJsonlTailForAppend(file, 1, (removed) => options.warn?.(`${layout.relative(file)}: removed ${removed} bytes of an interrupted append`));
  const lastLine = tail?.lines[0];
  if (lastLine === undefined) {
    if (recorded.entry_count !== 0) throw chainRefused(layout, featureId, `the chain is ${tail ? "empty" : "missing"} but the manifest records ${recorded.entry_count} entries`);
    return { sequence: 0, prev: GENESIS_HASH, manifest };
  }
  const last = parseEntry(lastLine);
  if (typeof last === "string") throw chainRefused(layout, featureId, `its last line ${last}`);
  if (last.sequence === recorded.entry_count - 1 && last.chain_hash === recorded.head_hash) {
    return { sequence: last.sequence + 1, prev: last.chain_hash, manifest };
  }
  const lag = last.sequence - recorded.entry_count + 1;
  if (lag > 0 && lag <= MAX_MANIFEST_LAG) {
    const back = readJsonlTail(file, recorded.entry_count > 0 ? lag + 1 : lag);
    if (back && continuesHead(back.lines, recorded)) {
      options.warn?.(`${layout.relative(file)}: ${lag} entr${lag === 1 ? "y was" : "ies were"} appended but not counted (interrupted append); counting now`);
      return { sequence: last.sequence + 1, prev: last.chain_hash, manifest };
    }
  }
  throw chainRefused(layout, featureId, `its last entry (sequence ${last.sequence}) does not match the manifest (${recorded.entry_count} entries, head ${recorded.head_hash.slice(0, 19)}…)`);
}

/**
 * Append the entry for one immutable evidence file. The caller holds `layout.lockFor(layout.chainFile(f))`:
 * sequence allocation and the append must not interleave with another appender.
 */
export function appendChainEntryLocked(layout: WorkspaceLayout, featureId: string, artifactPath: string, createdAt: string, options: AppendOptions = {}): ChainEntry {
  const { sequence, prev, manifest } = nextPosition(layout, featureId, options);
  const artifactHash = sha256FileOrNull(artifactPath);
  if (artifactHash === null) throw new AopError("evidence_not_found", `${layout.relative(artifactPath)} does not exist; only written evidence can be chained`);
  const entry = buildChainEntry({ sequence, feature_id: featureId, artifact_rel_path: layout.relative(artifactPath), artifact_hash: artifactHash, prev_chain_hash: prev, created_at: createdAt });
  // The line first (fsynced), then the manifest: a crash in between leaves entries the manifest does not
  // count yet, which the next append counts; the manifest never counts a line that is not on disk.
  appendJsonLine(layout.chainFile(featureId), chainLine(entry), { durable: options.durable ?? true });
  writeManifest(layout, featureId, {
    entry_count: sequence + 1,
    head_hash: entry.chain_hash,
    last_verified_at: manifest?.last_verified_at ?? null,
    last_verified_result: manifest?.last_verified_result ?? null,
  });
  return entry;
}

/**
 * Count entries the manifest lags behind (an append killed between its line and its manifest), so a chain
 * whose publication was finished after a crash verifies again. The caller holds the evidence lock.
 */
export function settleManifestLocked(layout: WorkspaceLayout, featureId: string, options: AppendOptions = {}): void {
  const { sequence, prev, manifest } = nextPosition(layout, featureId, options);
  if ((manifest?.entry_count ?? 0) >= sequence) return;
  writeManifest(layout, featureId, {
    entry_count: sequence,
    head_hash: prev,
    last_verified_at: manifest?.last_verified_at ?? null,
    last_verified_result: manifest?.last_verified_result ?? null,
  });
}

/** The chain entry that names `artifactRelPath`, or null (a linear scan: used only to finish a killed run). */
export function findChainEntry(layout: WorkspaceLayout, featureId: string, artifactRelPath: string): ChainEntry | null {
  const file = layout.chainFile(featureId);
  if (!fs.existsSync(file)) return null;
  for (const line of readLinesSync(file)) {
    if (!line.complete || !line.text.includes(artifactRelPath)) continue;
    const entry = parseEntry(line.text);
    if (typeof entry !== "string" && entry.artifact_rel_path === artifactRelPath) return entry;
  }
  return null;
}

/**
 * The chain's well-formed entries in file order, skipping torn, over-long and damaged lines (the
 * verifier reports those; a view or a reset only needs what each entry names). Nothing when there is no chain.
 */
export function* readChainEntries(layout: WorkspaceLayout, featureId: string): Generator<ChainEntry> {
  const file = layout.chainFile(featureId);
  if (!fs.existsSync(file)) return;
  for (const line of readLinesSync(file)) {
    if (!line.complete || line.overlong || line.text === "") continue;
    const entry = parseEntry(line.text);
    if (typeof entry !== "string") yield entry;
  }
}
