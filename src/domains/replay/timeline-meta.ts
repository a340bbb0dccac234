// The per-run meta file: a cache of the timeline's tail state plus a sparse offset index. The JSONL
// file is the truth; everything here can be rebuilt from it, and nothing reads a meta without checking
// it against the file. Pure.

// Sparse: the index narrows a query's bisection and an exporter's resume, and the meta holding it is
// rewritten at every append (docs/replay.md).
export const INDEX_STRIDE = 1024;

/** The five fields of the contract: all a meta written by the upstream orchestrator holds. */
export interface ContractMeta {
  run_id: string;
  sequence_head: number; // last sequence written, -1 when empty
  entry_count: number;
  started_at: string | null;
  last_entry_at: string | null;
}

export interface TimelineMeta extends ContractMeta {
  // Everything below is ours; readers never require it (docs/replay.md).
  file_size: number;
  error_count: number;
  /** Lines that could not be read as entries (torn by a crash, edited, garbage). */
  skipped_lines: number;
  /** Torn final lines a writer terminated so appends could continue. */
  repaired_torn_lines: number;
  /** Sequences that broke the +1 rule (gaps or duplicates) while scanning. */
  sequence_anomalies: number;
  /** Entries not recorded because the run reached max_entries_per_run. */
  dropped_entries: number;
  first_dropped_at: string | null;
  last_dropped_at: string | null;
  /** Spool files that could not be read as entries (removed, counted here). */
  spool_rejected: number;
  /**
   * Every INDEX_STRIDE sequences, the sequence and the byte offset of its line, ascending, as one flat
   * list: [sequence, offset, sequence, offset, …] (one array to read and write however long the run).
   */
  index: number[];
}

export function emptyMeta(runId: string): TimelineMeta {
  return {
    run_id: runId, sequence_head: -1, entry_count: 0, started_at: null, last_entry_at: null, file_size: 0, error_count: 0,
    skipped_lines: 0, repaired_torn_lines: 0, sequence_anomalies: 0, dropped_entries: 0, first_dropped_at: null, last_dropped_at: null, spool_rejected: 0, index: [],
  };
}

/** Fold one entry (whose line starts at `offset`) into the meta; the caller sets `file_size`. */
export function noteEntry(meta: TimelineMeta, entry: { sequence: number; ts: string; result: string }, offset: number): void {
  if (entry.sequence !== meta.sequence_head + 1) meta.sequence_anomalies += 1;
  if (entry.sequence > meta.sequence_head) meta.sequence_head = entry.sequence;
  meta.entry_count += 1;
  if (meta.started_at === null) meta.started_at = entry.ts;
  meta.last_entry_at = entry.ts;
  if (entry.result === "error") meta.error_count += 1;
  if (entry.sequence % INDEX_STRIDE === 0) {
    const last = meta.index.length === 0 ? -1 : meta.index[meta.index.length - 2]!;
    if (last < entry.sequence) meta.index.push(entry.sequence, offset);
  }
}

/** The byte offset to start reading from to find `sequence` (0 when the index does not help). */
export function seekOffset(meta: TimelineMeta, sequence: number): number {
  let lo = 0;
  let hi = meta.index.length / 2 - 1;
  let best = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (meta.index[2 * mid]! <= sequence) {
      best = meta.index[2 * mid + 1]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

const int = (x: unknown) => typeof x === "number" && Number.isInteger(x);
const timeOrNull = (x: unknown) => x === null || typeof x === "string";

/** The contract's five fields of a parsed meta file (ours or the upstream orchestrator's), or null when they are not there. */
export function parseContractMeta(value: unknown): ContractMeta | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Partial<ContractMeta>;
  if (typeof v.run_id !== "string" || !int(v.sequence_head) || !int(v.entry_count) || !timeOrNull(v.started_at) || !timeOrNull(v.last_entry_at)) return null;
  return { run_id: v.run_id, sequence_head: v.sequence_head!, entry_count: v.entry_count!, started_at: v.started_at ?? null, last_entry_at: v.last_entry_at ?? null };
}

/**
 * A parsed meta file as our cache, or null when it is not one (a meta with only the contract's
 * fields, another run's, or broken): then the file itself is read instead.
 */
export function parseMeta(value: unknown, runId: string): TimelineMeta | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Partial<TimelineMeta>;
  if (v.run_id !== undefined && v.run_id !== runId) return null;
  if (!int(v.sequence_head) || !int(v.entry_count) || !int(v.file_size)) return null;
  const meta = { ...emptyMeta(runId), ...v, run_id: runId } as TimelineMeta;
  meta.index = flatIndex(v.index);
  return meta;
}

/**
 * A meta's index as the flat list, from the flat list or from [sequence, offset] pairs (metas written
 * before the list was flat); empty when it is neither. A plain loop: a hook reads the index of a long
 * run (thousands of entries) once per tool call.
 */
function flatIndex(index: unknown): number[] {
  if (!Array.isArray(index)) return [];
  const list = index as unknown[];
  if (list.length > 0 && Array.isArray(list[0])) {
    const flat: number[] = [];
    for (const pair of list) {
      if (!Array.isArray(pair) || pair.length !== 2 || !int(pair[0]) || !int(pair[1])) return [];
      flat.push(pair[0] as number, pair[1] as number);
    }
    return flat;
  }
  if (list.length % 2 !== 0) return [];
  for (const n of list) if (!int(n)) return [];
  return list as number[];
}

/**
 * The meta file's text: one field a line, the offset index on one line of its own. Written at every
 * append, so on a long run (thousands of index pairs) a pair a line would be most of the file.
 */
export function serializeMeta(meta: TimelineMeta): string {
  const { index, ...fields } = meta;
  return `${JSON.stringify(fields, null, 2).slice(0, -2)},\n  "index": ${JSON.stringify(index)}\n}\n`;
}
