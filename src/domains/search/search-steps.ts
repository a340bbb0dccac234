// Steps (timeline entries) that match a search, run by run: through the run's index where it is valid,
// then the lines past it read from the file, which also brings the index up to date (docs/replay.md,
// "Search"). Every candidate the index names is read and matched again, so the index can only save reads.
import { isAscii } from "node:buffer";
import fs from "node:fs";
import { isAopError } from "../../core/errors.js";
import { ledgerKey, readRecord } from "../../store/ledger-files.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { readLinesSync } from "../../store/jsonl.js";
import { asEntry, TimelineFile, type TimelineEntry } from "../replay/index.js";
import { byteWords, caselessPatterns, FAST_LINE_MAX, flagBytes, flagLines } from "./search-prefilter.js";
import { addLine, candidates, emptyIndex, loadIndex, saveIndex, type LoadedIndex, type RunIndex } from "./search-index.js";
import { docMatches, docTokens, type NewestPage, type PlacedDoc, type SearchDoc, type SearchFilter } from "./search-match.js";

export interface StepSearchStats {
  /** Timeline lines read and matched. */
  lines_read: number;
  /** Runs whose index was valid and used. */
  runs_indexed: number;
  matched: number;
}

export interface StepSearchOptions {
  words: readonly string[];
  filter: SearchFilter;
  /** False: read every line and leave the index alone (the streaming scan). */
  useIndex: boolean;
  /** Which workspace the hits belong to ("" for the current one). */
  where: string;
  /** The workspace's ledger folders, from ledgerBuckets (listed once per search). */
  ledger: LedgerBuckets;
}

/** The names in the ledger folder (its fan-out folders); null when it cannot be listed (every record is then read). */
export type LedgerBuckets = ReadonlySet<string> | null;

/**
 * A failed call is matched with its ledger message; a record whose folder is not there is not read
 * (one listing instead of a lookup per failed call), and with no folder at all no failed call has a
 * message, so the scan need not parse failed calls for one (docs/performance.md, "Search").
 */
export function ledgerBuckets(layout: WorkspaceLayout): LedgerBuckets {
  try {
    return new Set(fs.readdirSync(layout.ledgerDir));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? new Set() : null;
  }
}

const MESSAGE_MAX = 500;

/** A failed mutating call's error message, from the ledger's recorded envelope (null when not kept). */
function errorMessage(layout: WorkspaceLayout, entry: TimelineEntry, ledger: LedgerBuckets): string | null {
  if (entry.result !== "error" || entry.operation_id === null) return null;
  if (ledger !== null && !ledger.has(ledgerKey(entry.operation_id).slice(0, 2))) return null;
  try {
    const record = readRecord(layout, entry.operation_id);
    if (!record || record.run_id !== entry.run_id) return null;
    const envelope = JSON.parse(record.envelope_json) as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
    if (envelope.ok !== false || envelope.error?.code !== entry.error_code || typeof envelope.error.message !== "string") return null;
    return envelope.error.message.slice(0, MESSAGE_MAX);
  } catch (err) {
    if (isAopError(err) || err instanceof SyntaxError) return null; // a damaged record: the step is still found by its other words
    throw err;
  }
}

/** What a step is found by: its tool, ids, result and error (never its input, which aop keeps only as a hash). */
function stepDoc(layout: WorkspaceLayout, entry: TimelineEntry, offset: number, ledger: LedgerBuckets): SearchDoc {
  // A failed step leads with its error: the snippet shows it.
  const fields: string[] = [];
  if (entry.error_code !== null) {
    const message = errorMessage(layout, entry, ledger);
    fields.push(message === null ? entry.error_code : `${entry.error_code}: ${message}`);
  }
  fields.push(entry.tool_name);
  for (const value of [entry.feature_id, entry.run_id, entry.session_id, entry.operation_id, entry.marker, entry.agent_type]) if (typeof value === "string" && value !== "") fields.push(value);
  fields.push(entry.result);
  return {
    kind: "step",
    ts: entry.ts,
    key: `step:${entry.run_id}:${String(entry.sequence).padStart(16, "0")}:${String(offset).padStart(16, "0")}`,
    title: `${entry.tool_name} #${entry.sequence}`,
    fields,
    tool_name: entry.tool_name,
    feature_id: entry.feature_id,
    result: entry.result,
    run_id: entry.run_id,
    sequence: entry.sequence,
    open: `aop replay --run-id ${entry.run_id} --from-sequence ${entry.sequence}`,
    state: `aop state --run-id ${entry.run_id} --at ${entry.sequence}`,
  };
}

const ERROR_RESULT = /"result"\s*:\s*"error"/;

/**
 * True when the line's bytes show it cannot match: it is ASCII without `\u` escapes (so every word of
 * its fields appears in its lower-cased text as written), it is not a failed call (whose ledger message
 * is matched too), and some query word is nowhere in it. A necessary condition only: a line it passes
 * is parsed and matched in full, so the answer is the same as parsing every line. `failed`: false when
 * no failed call can have a ledger message (ledgerBuckets found no ledger), so a failed call is judged
 * by its words like any other.
 */
export function cannotMatch(bytes: Buffer, from: number, to: number, words: readonly string[], failed = true): boolean {
  if (words.length === 0) return false;
  for (let i = from; i < to; i++) if (bytes[i]! >= 0x80) return false;
  const text = bytes.toString("latin1", from, to);
  if (text.includes("\\u") || (failed && ERROR_RESULT.test(text))) return false;
  const lower = text.toLowerCase();
  return words.some((w) => !lower.includes(w));
}

const CHUNK = 1024 * 1024;
/** Lines are looked at this many bytes at a time (short strings decode faster). */
const PIECE = 16 * 1024;

/** One read buffer for every scan of the process (scans are synchronous): a fresh 1 MiB per run costs its page faults each time. */
let scratch: Buffer | null = null;

type Take = (bytes: Buffer, lineFrom: number, lineTo: number, offset: number, indexing: boolean) => void;

/**
 * Passes the whole lines in [from, to) to `take` a chunk at a time, except the lines `flagLines` shows
 * cannotMatch would rule out, which are only counted. Returns where it stopped: `to`, or the start of a
 * line it leaves to the line reader (one longer than FAST_LINE_MAX or than a chunk).
 */
function scanChunks(timeline: TimelineFile, from: number, to: number, words: readonly string[], failed: boolean, stats: StepSearchStats, take: Take): number {
  scratch ??= Buffer.allocUnsafe(CHUNK);
  const buffer = scratch.subarray(0, Math.min(CHUNK, to - from));
  const patterns = caselessPatterns(words);
  const asBytes = byteWords(words);
  const lineTo = (start: number, nl: number) => (nl > start && buffer[nl - 1] === 0x0d ? nl - 1 : nl);
  let position = from;
  while (position < to) {
    const read = fs.readSync(timeline.fd, buffer, 0, Math.min(buffer.length, to - position), position);
    const last = read === 0 ? -1 : buffer.lastIndexOf(0x0a, read - 1);
    if (last === -1) break;
    for (let piece = 0; piece <= last; ) {
      let end = piece + PIECE >= last ? last : buffer.lastIndexOf(0x0a, piece + PIECE);
      if (end < piece) end = buffer.indexOf(0x0a, piece + PIECE);
      const bytes = buffer.subarray(piece, end + 1);
      const found = isAscii(bytes) ? (flagBytes(bytes, asBytes, failed) ?? flagLines(buffer.toString("latin1", piece, end + 1), patterns, failed)) : null;
      if (found === null) {
        // Bytes past ASCII: every line through cannotMatch, as the line reader would pass them.
        for (let start = piece; start <= end; ) {
          const nl = buffer.indexOf(0x0a, start);
          if (nl - start > FAST_LINE_MAX) return position + start;
          take(buffer, start, lineTo(start, nl), position + start, false);
          start = nl + 1;
        }
      } else {
        stats.lines_read += found.lines;
        for (let i = 0; i < found.flagged.length; i += 2) {
          const start = piece + found.flagged[i]!;
          stats.lines_read -= 1; // counted again by `take`, or not at all when the line is not JSON
          take(buffer, start, lineTo(start, piece + found.flagged[i + 1]!), position + start, false);
        }
        if (found.stop <= end - piece) return position + piece + found.stop;
      }
      piece = end + 1;
    }
    position += last + 1;
  }
  return position;
}

/** Offers the run's matching steps to `page`; counts them in `stats`. */
export function searchRunSteps(layout: WorkspaceLayout, runId: string, options: StepSearchOptions, page: NewestPage<PlacedDoc>, stats: StepSearchStats): void {
  let timeline: TimelineFile | null;
  try {
    timeline = TimelineFile.open(layout.timelineFile(runId));
  } catch (err) {
    if (isAopError(err)) return; // a FIFO, a link out of the workspace: `aop replay --list` names the problem
    throw err;
  }
  if (!timeline) return;
  try {
    const index = options.useIndex ? loadIndex(layout, runId, timeline) : null;
    if (index) stats.runs_indexed += 1;
    const updated: LoadedIndex | RunIndex | null = options.useIndex ? (index ?? emptyIndex(runId, timeline)) : null;
    /** Matches one line; a line past the index is also added to it. */
    const consider = (entry: TimelineEntry | null, offset: number, indexing: boolean): void => {
      stats.lines_read += 1;
      if (!entry || entry.run_id !== runId) return;
      // The time filter first: it needs no ledger read (unless the line is being indexed).
      const early = options.filter.since !== undefined && entry.ts < options.filter.since;
      if (early && !indexing) return;
      // A line being indexed reads its record whatever the listing said: the index keeps what it is given,
      // and a record written since the listing must not be missing from it.
      const doc = stepDoc(layout, entry, offset, indexing ? null : options.ledger);
      if (indexing && updated) addLine(updated, offset, new Set(docTokens(doc)));
      if (early || !docMatches(doc, options.words, options.filter)) return;
      stats.matched += 1;
      const hit = { ...doc, ts: entry.ts, where: options.where };
      if (page.wants(hit)) page.offer(hit);
    };
    const narrowed = index ? candidates(index, options.words) : null;
    const failed = options.ledger === null || options.ledger.size > 0;
    let from = 0;
    if (index && narrowed !== null) {
      for (const offset of narrowed) {
        if (offset >= index.file_size) break;
        const line = timeline.lineAt(offset);
        if (line && line.start === offset) consider(line.entry, offset, false);
      }
      from = index.file_size;
    }
    const indexedUpTo = updated?.file_size ?? 0;
    let end = indexedUpTo;
    /** One whole line, raw: a line only matched (not indexed) that cannot hold the words is passed over unparsed. */
    const take: Take = (bytes, lineFrom, lineTo, offset, indexing) => {
      if (!indexing && cannotMatch(bytes, lineFrom, lineTo, options.words, failed)) {
        stats.lines_read += 1;
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(bytes.toString("utf8", lineFrom, lineTo));
      } catch {
        return; // not an entry: `aop replay --list` counts it
      }
      consider(asEntry(value), offset, indexing);
    };
    // The lines only matched (before the index's end, or all of them without an index), many at a time.
    const fastEnd = updated === null ? timeline.end : indexedUpTo;
    const next = from < fastEnd && options.words.length > 0 ? scanChunks(timeline, from, fastEnd, options.words, failed, stats, take) : from;
    // The rest up to the end the open file had (a torn last line excluded), line by line.
    if (next < timeline.end) for (const line of readLinesSync(layout.timelineFile(runId), { fromOffset: next, endOffset: timeline.end, raw: true })) {
      if (!line.complete) break;
      end = line.end;
      if (line.overlong || line.bytes === undefined) continue;
      take(line.bytes, line.from!, line.to!, line.offset, updated !== null && line.offset >= indexedUpTo);
    }
    // A damaged index is removed by saveIndex (the next search builds it anew).
    if (updated && (end > indexedUpTo || ("damaged" in updated && updated.damaged))) {
      updated.file_size = end;
      saveIndex(layout, updated, timeline);
    }
  } finally {
    timeline.close();
  }
}
