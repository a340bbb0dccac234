// Two runs side by side: calls aligned by operation id and by their order (sequence), then compared.
// An entry's key is its operation id when the other run has that id too, else its tool and feature.
// Operation ids found once in each run anchor the alignment; between anchors the key lists are aligned
// by a shortest edit script (Myers), so one extra call early in a run shows as one added call, not as
// every later call changed. Pure (docs/report.md).
import type { ReportEntry } from "./timeline-codec.js";

export type DiffEntry = Pick<ReportEntry, "sequence" | "tool_name" | "feature_id" | "operation_id" | "result" | "error_code" | "idempotency_status" | "mutating" | "request_hash">;

type DiffKind = "same" | "changed" | "added" | "missing";

/** The fields whose difference makes a pair "changed" (latency and time always differ). */
const COMPARED_FIELDS = ["tool_name", "feature_id", "result", "error_code", "idempotency_status", "mutating", "request_hash"] as const;
type ComparedField = (typeof COMPARED_FIELDS)[number];

interface DiffChange {
  field: ComparedField;
  a: string | boolean | null;
  b: string | boolean | null;
}

export interface DiffRow {
  kind: DiffKind;
  /** Index into run A's entries (null for a call only B made). */
  a: number | null;
  b: number | null;
  /** How the pair was matched. */
  by: "operation_id" | "order" | null;
  changes: DiffChange[];
}

export interface RunDiff {
  rows: DiffRow[];
  summary: Record<DiffKind, number>;
  /** "aligned" normally; "positional" when the runs differ too much to align (pairs by order past the common start and end). */
  method: "aligned" | "positional";
}

/** Beyond this many added + missing calls the runs are paired by order instead (the search's memory grows with its square). */
const DEFAULT_MAX_EDITS = 2_000;

function keysOf(a: readonly DiffEntry[], b: readonly DiffEntry[]): { ka: Int32Array; kb: Int32Array; byOp: (x: number) => boolean } {
  const opsA = new Set<string>();
  for (const e of a) if (e.operation_id !== null) opsA.add(e.operation_id);
  const shared = new Set<string>();
  for (const e of b) if (e.operation_id !== null && opsA.has(e.operation_id)) shared.add(e.operation_id);
  const ids = new Map<string, number>();
  const opKeys = new Set<number>();
  const key = (e: DiffEntry): number => {
    const byOp = e.operation_id !== null && shared.has(e.operation_id);
    const text = byOp ? `op\u0000${e.operation_id}` : `call\u0000${e.tool_name}\u0000${e.feature_id ?? ""}`;
    let id = ids.get(text);
    if (id === undefined) {
      id = ids.size;
      ids.set(text, id);
      if (byOp) opKeys.add(id);
    }
    return id;
  };
  return { ka: Int32Array.from(a, key), kb: Int32Array.from(b, key), byOp: (x) => opKeys.has(x) };
}

type Op = "eq" | "del" | "ins";

/** True when step d reaches diagonal k from k+1 (an insertion), false when from k-1 (a deletion). */
function fromAbove(at: (k: number) => number, k: number, d: number): boolean {
  return k === -d || (k !== d && at(k - 1) < at(k + 1));
}

/**
 * Myers' greedy shortest edit script between ka[aLo..aHi) and kb[bLo..bHi), or null past `maxEdits`.
 * Each step keeps only the diagonals it can reach, so memory grows with edits², not with run length.
 */
function editScript(ka: Int32Array, kb: Int32Array, aLo: number, aHi: number, bLo: number, bHi: number, maxEdits: number): Op[] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const at = (k: number) => v[offset + k]!;
  // trace[d] holds diagonals -(d+1)..d+1 as they were before step d.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = fromAbove(at, k, d) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && ka[aLo + x] === kb[bLo + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const saved = trace[d]!;
    const at = (k: number) => saved[k + d + 1]!;
    const k = x - y;
    const prevK = fromAbove(at, k, d) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push("eq");
      x--;
      y--;
    }
    ops.push(x === prevX ? "ins" : "del");
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push("eq");
    x--;
    y--;
  }
  return ops.reverse();
}

function compare(a: DiffEntry, b: DiffEntry): DiffChange[] {
  const changes: DiffChange[] = [];
  for (const field of COMPARED_FIELDS) if (a[field] !== b[field]) changes.push({ field, a: a[field], b: b[field] });
  return changes;
}

/** Pairs (i, j) of operation ids found exactly once in each run, the longest run of them in order in both. */
function anchors(ka: Int32Array, kb: Int32Array, lo: number, aHi: number, bHi: number, byOp: (k: number) => boolean): [number, number][] {
  const countA = new Map<number, number>();
  const countB = new Map<number, number>();
  const posB = new Map<number, number>();
  for (let i = lo; i < aHi; i++) if (byOp(ka[i]!)) countA.set(ka[i]!, (countA.get(ka[i]!) ?? 0) + 1);
  for (let j = lo; j < bHi; j++) {
    if (!byOp(kb[j]!)) continue;
    countB.set(kb[j]!, (countB.get(kb[j]!) ?? 0) + 1);
    posB.set(kb[j]!, j);
  }
  const pairs: [number, number][] = [];
  for (let i = lo; i < aHi; i++) {
    const k = ka[i]!;
    if (countA.get(k) === 1 && countB.get(k) === 1) pairs.push([i, posB.get(k)!]);
  }
  // Longest increasing subsequence of j (pairs are already in i order): patience sorting.
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let p = 0; p < pairs.length; p++) {
    let l = 0;
    let h = tails.length;
    while (l < h) {
      const m = (l + h) >> 1;
      if (pairs[tails[m]!]![1] < pairs[p]![1]) l = m + 1;
      else h = m;
    }
    if (l > 0) prev[p] = tails[l - 1]!;
    tails[l] = p;
  }
  const out: [number, number][] = [];
  for (let p = tails.length ? tails[tails.length - 1]! : -1; p !== -1; p = prev[p]!) out.push(pairs[p]!);
  return out.reverse();
}

export function diffRuns(a: readonly DiffEntry[], b: readonly DiffEntry[], options: { maxEdits?: number } = {}): RunDiff {
  const { ka, kb, byOp } = keysOf(a, b);
  const rows: DiffRow[] = [];
  let budget = options.maxEdits ?? DEFAULT_MAX_EDITS;
  let positional = false;
  const pair = (i: number, j: number) => {
    const changes = compare(a[i]!, b[j]!);
    rows.push({ kind: changes.length === 0 ? "same" : "changed", a: i, b: j, by: byOp(ka[i]!) ? "operation_id" : "order", changes });
  };
  const missing = (i: number) => rows.push({ kind: "missing", a: i, b: null, by: null, changes: [] });
  const added = (j: number) => rows.push({ kind: "added", a: null, b: j, by: null, changes: [] });
  const segment = (aLo: number, aHi: number, bLo: number, bHi: number) => {
    const ops = aLo === aHi && bLo === bHi ? [] : editScript(ka, kb, aLo, aHi, bLo, bHi, budget);
    let i = aLo;
    let j = bLo;
    if (ops) {
      for (const op of ops) {
        if (op === "eq") pair(i++, j++);
        else if (op === "del") missing(i++);
        else added(j++);
      }
      budget -= ops.filter((op) => op !== "eq").length;
      return;
    }
    // Too different to align: pair by order where the calls agree, otherwise one missing and one added.
    positional = true;
    for (; i < aHi && j < bHi; i++, j++) {
      if (ka[i] === kb[j]) pair(i, j);
      else {
        missing(i);
        added(j);
      }
    }
    for (; i < aHi; i++) missing(i);
    for (; j < bHi; j++) added(j);
  };
  // The common start and end need no search (two runs of one workflow mostly share both).
  let lo = 0;
  while (lo < a.length && lo < b.length && ka[lo] === kb[lo]) lo++;
  let aHi = a.length;
  let bHi = b.length;
  while (aHi > lo && bHi > lo && ka[aHi - 1] === kb[bHi - 1]) {
    aHi--;
    bHi--;
  }
  for (let i = 0; i < lo; i++) pair(i, i);
  // Between the common ends, calls with the same operation id anchor the alignment (they are the same
  // operation, whatever moved around them); the stretches between anchors are aligned by order.
  let i = lo;
  let j = lo;
  for (const [ai, bj] of anchors(ka, kb, lo, aHi, bHi, byOp)) {
    segment(i, ai, j, bj);
    pair(ai, bj);
    i = ai + 1;
    j = bj + 1;
  }
  segment(i, aHi, j, bHi);
  for (let t = 0; aHi + t < a.length; t++) pair(aHi + t, bHi + t);
  const summary: Record<DiffKind, number> = { same: 0, changed: 0, added: 0, missing: 0 };
  for (const r of rows) summary[r.kind] += 1;
  return { rows, summary, method: positional ? "positional" : "aligned" };
}
