// A run's lines with only some parsed: for a reader that needs every sequence but the fields of few lines
// (time travel: only the lines of state-changing calls and the steps asked about). A line in the shape our
// writer makes (`{"ts":"…","sequence":N,…`) gives its sequence without a parse; any other line is parsed in
// full. The rules are readEntriesFrom's: torn, over-long and unparseable lines are skipped, and a line
// whose sequence is not above the previous one is left out.
import { validateId } from "../../core/ids.js";
import { readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { asEntry, type TimelineEntry } from "./timeline-entry.js";
import { timelineFileOf } from "./timeline-read.js";

export interface SparseLine {
  sequence: number;
  /** The whole entry, when `parse` asked for it. */
  entry: TimelineEntry | null;
}

const SEQUENCE_KEY = Buffer.from('","sequence":');
const HEAD = Buffer.from('{"ts":"');
/** Where the sequence key starts after a 24-character instant (`2026-01-01T00:00:00.000Z`). */
const USUAL_AT = HEAD.length + 24;

/** The sequence of a line in our writer's shape, or null (then the line is parsed). */
function fastSequence(line: Buffer): number | null {
  if (line.length < 40 || line.compare(HEAD, 0, HEAD.length, 0, HEAD.length) !== 0) return null;
  // ts is an ISO instant: the sequence key follows within the next 40 bytes or the line is not ours. Our
  // writer's instants have 24 characters, so it is looked for there first.
  const usual = line.length >= USUAL_AT + SEQUENCE_KEY.length && line.compare(SEQUENCE_KEY, 0, SEQUENCE_KEY.length, USUAL_AT, USUAL_AT + SEQUENCE_KEY.length) === 0;
  const at = usual ? USUAL_AT : line.subarray(0, 80).indexOf(SEQUENCE_KEY);
  if (at === -1) return null;
  let n = 0;
  let i = at + SEQUENCE_KEY.length;
  const start = i;
  for (; i < line.length && line[i]! >= 0x30 && line[i]! <= 0x39; i++) n = n * 10 + (line[i]! - 0x30);
  return i > start && i - start <= 15 && line[i] === 0x2c ? n : null;
}

/** Every entry's sequence in order; `parse(sequence, line)` says which lines to parse in full. */
export function* readSparse(layout: WorkspaceLayout, runId: string, parse: (sequence: number, line: Buffer) => boolean): Generator<SparseLine> {
  const { file, size } = timelineFileOf(layout, validateId("run_id", runId));
  let next = 0;
  for (const raw of readLinesSync(file, { endOffset: size, raw: true })) {
    if (!raw.complete || raw.overlong || raw.bytes === undefined) continue;
    const line = raw.bytes.subarray(raw.from, raw.to);
    const fast = fastSequence(line);
    let entry: TimelineEntry | null = null;
    if (fast === null || parse(fast, line)) {
      try {
        entry = asEntry(JSON.parse(line.toString("utf8")));
      } catch {
        entry = null;
      }
      if (!entry || (fast !== null && entry.sequence !== fast)) continue;
    }
    const sequence = entry ? entry.sequence : fast!;
    if (sequence < next) continue;
    next = sequence + 1;
    yield { sequence, entry };
  }
}
