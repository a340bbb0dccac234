// Lines in the shape aop wrote before DESIGN §21 — extras inside the line (`transport`, `marker`,
// `agent_id`…), `session_id: null`, a fractional `latency_ms` — which the upstream orchestrator's replay
// refuses. aop still reads them (asEntry); the doctor finds them (DRIFT_013) and `aop migrate` rewrites
// them into line + sidecar (timeline-migrate.ts). The test is on bytes, per line, without parsing: a
// line of the seed's shape ends with `"latency_ms":<digits>}` (aop, §4's order) or `"sequence":<digits>}`
// (upstream's own writer puts sequence last), and has no `"session_id":null` among its first keys.
import { readLinesSync } from "../../store/jsonl.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { entrySequence } from "./timeline-entry.js";

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const SESSION_NULL = Buffer.from('"session_id":null');
const LATENCY = Buffer.from('"latency_ms":');
const SEQUENCE = Buffer.from('"sequence":');
// session_id is the fourth key: it starts well inside this many bytes of a line.
const HEAD_BYTES = 512;

function endsWithKeyAndDigits(b: Uint8Array, from: number, to: number, key: Buffer): boolean {
  let i = to - 1;
  while (i > from && (b[i] === 0x20 || b[i] === 0x0d)) i--;
  if (b[i] !== 0x7d) return false; // }
  i--;
  const lastDigit = i;
  while (i > from && b[i]! >= 0x30 && b[i]! <= 0x39) i--;
  if (i === lastDigit) return false;
  const start = i - key.length + 1;
  if (start < from) return false;
  for (let k = 0; k < key.length; k++) if (b[start + k] !== key[k]) return false;
  return true;
}

/** True when the line `b[from, to)` (an entry) is in the old shape. */
export function isOldShapeLine(b: Buffer, from: number, to: number): boolean {
  if (!endsWithKeyAndDigits(b, from, to, LATENCY) && !endsWithKeyAndDigits(b, from, to, SEQUENCE)) return true;
  return b.subarray(from, Math.min(to, from + HEAD_BYTES)).indexOf(SESSION_NULL) !== -1;
}

/**
 * How many of a run's lines are in the old shape (unparseable lines are not counted): `aop migrate`'s
 * count, under the run's lock. The doctor takes it from its one audit of the run (timeline-audit.ts).
 */
export function countOldShapeLines(layout: WorkspaceLayout, runId: string): number {
  let old = 0;
  for (const line of readLinesSync(layout.timelineFile(runId), { raw: true })) {
    if (!line.complete || line.overlong || line.from === line.to) continue;
    const b = line.bytes!;
    if (b[line.from!] !== 0x7b) continue; // not an object: not an entry
    // Flagged lines are rare once migrated: only they are parsed, so a damaged line (DRIFT_006's) is not counted.
    if (isOldShapeLine(b, line.from!, line.to!) && entrySequence(parseOrNull(b.toString("utf8", line.from, line.to))) !== null) old += 1;
  }
  return old;
}
