// The shape of a records ref's tree (DESIGN §24, docs/sync.md): where each local record goes in it, how a
// timeline is cut into segments, and — for pulled trees, which are untrusted — which paths are allowed and
// where each lands in the workspace-shaped folder `.aop/remote/<remote>/<workspace_id>/`. Pure.

/** A segment holds at most this many timeline lines: only the last one changes as a run grows. */
export const SEGMENT_LINES = 4096;

/** One path component: the id characters (core/ids.ts), not starting with '.', no '..'. */
const NAME = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_:@+.-]{1,255}$/;
const SEGMENT = /^seg-(\d{12})(\.ext)?\.jsonl$/;
const RUN_META = /^(.+)\.json$/;
const MAX_DEPTH = 8;
const MAX_ID = 128;

export function isTreeName(name: string): boolean {
  return NAME.test(name);
}

export function segmentName(firstSequence: number, ext: boolean): string {
  return `seg-${String(firstSequence).padStart(12, "0")}${ext ? ".ext" : ""}.jsonl`;
}

/** Where a pulled file lands, relative to the origin's folder; `join` marks a timeline (or sidecar) segment. */
export type Placement =
  | { kind: "file"; local: string }
  | { kind: "segment"; run: string; first: number; ext: boolean; local: string }
  | { kind: "workspace" }
  | { kind: "refused"; reason: string };

const TOP: Record<string, string> = {
  features: ".aop/features",
  ledger: ".aop/runtime/operation-ledger",
  checkpoints: ".checkpoints",
  memory: "memory",
};

/** Where `treePath` (from an untrusted tree) goes in the origin's folder, or why it is refused. */
export function placeTreePath(treePath: string): Placement {
  const parts = treePath.split("/");
  if (parts.length > MAX_DEPTH) return { kind: "refused", reason: `path '${treePath.slice(0, 200)}' is deeper than ${MAX_DEPTH} levels` };
  const bad = parts.find((p) => !NAME.test(p));
  if (bad !== undefined) return { kind: "refused", reason: `path '${treePath.slice(0, 200)}' has a component ('${bad.slice(0, 80)}') that is not a plain name` };
  const [top, ...rest] = parts as [string, ...string[]];
  if (rest.length === 0) {
    if (top === "workspace.json") return { kind: "workspace" };
    if (top === "handoff.json") return { kind: "file", local: ".aop/runtime/handoff.json" };
    return { kind: "refused", reason: `'${top}' is not a records file` };
  }
  // Run and feature ids become file names through WorkspaceLayout, which takes ids of at most 128 characters.
  if ((top === "timelines" || top === "features") && rest.length > 1 && rest[0]!.length > MAX_ID) return { kind: "refused", reason: `'${rest[0]!.slice(0, 80)}…' is longer than ${MAX_ID} characters` };
  if (top === "timelines" && rest.length === 2) {
    const m = SEGMENT.exec(rest[1]!);
    if (m === null) return { kind: "refused", reason: `'${treePath}' is not a segment name (seg-<12 digits>[.ext].jsonl)` };
    const ext = m[2] !== undefined;
    const run = rest[0]!;
    return { kind: "segment", run, first: Number(m[1]), ext, local: `.aop/runtime/replay/${run}.${ext ? "ext" : "timeline"}.jsonl` };
  }
  if (top === "meta" && rest.length === 1) {
    const m = RUN_META.exec(rest[0]!);
    if (m !== null && m[1]!.length <= MAX_ID) return { kind: "file", local: `.aop/runtime/replay/${m[1]}.meta.json` };
  }
  if (top === "doctor" && rest.length === 1 && rest[0] === "last_report.json") return { kind: "file", local: ".aop/runtime/doctor/last_report.json" };
  const base = TOP[top];
  if (base !== undefined) return { kind: "file", local: `${base}/${rest.join("/")}` };
  return { kind: "refused", reason: `'${treePath.slice(0, 200)}' is outside the records layout` };
}

const SEQUENCE = /"sequence":(\d{1,15})[,}]/;

/** The `sequence` of a timeline or sidecar line, read without parsing the whole line; null when absent. */
function lineSequence(line: Buffer): number | null {
  const m = SEQUENCE.exec(line.subarray(0, 512).toString("latin1"));
  return m === null ? null : Number(m[1]);
}

/** Splits chunks into complete lines; a trailing partial line (a write in progress) is never emitted. */
class LineSplitter {
  private pending: Buffer[] = [];
  constructor(private readonly onLine: (line: Buffer) => void) {}
  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, nl + 1));
      this.onLine(this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending));
      this.pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
  }
}

export type SegmentSink = (first: number, bytes: Buffer, lines: number) => void;

/**
 * Cuts a timeline's complete lines into segments of SEGMENT_LINES, named by their first line's sequence
 * (kept strictly increasing, so names never collide whatever the lines say). Fed in chunks; each full
 * segment goes to the sink as soon as it is complete, the last one on end().
 */
export class SegmentCutter {
  /** The first sequence of every segment, in order. */
  readonly firsts: number[] = [];
  private readonly splitter = new LineSplitter((line) => this.line(line));
  private current: Buffer[] = [];
  private lineCount = 0;

  /** `resume`: the complete segments already cut from the bytes before the first chunk (segment-cache.ts). */
  constructor(
    private readonly sink: SegmentSink,
    resume?: { firsts: number[]; lines: number },
  ) {
    if (resume !== undefined) {
      if (resume.lines !== resume.firsts.length * SEGMENT_LINES) throw new Error("a resumed cutter starts at a segment boundary");
      this.firsts.push(...resume.firsts);
      this.lineCount = resume.lines;
    }
  }

  push(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  private line(line: Buffer): void {
    if (this.lineCount % SEGMENT_LINES === 0) {
      this.flush();
      const previous = this.firsts[this.firsts.length - 1];
      const seq = lineSequence(line) ?? this.lineCount;
      this.firsts.push(previous === undefined ? seq : Math.max(seq, previous + 1));
    }
    this.current.push(line);
    this.lineCount += 1;
  }

  private flush(): void {
    if (this.current.length === 0) return;
    this.sink(this.firsts[this.firsts.length - 1]!, Buffer.concat(this.current), this.current.length);
    this.current = [];
  }

  end(): void {
    this.flush();
  }

  get lines(): number {
    return this.lineCount;
  }
}

/**
 * Cuts a sidecar into the timeline's segments by sequence, in file order: a line never goes to an earlier
 * segment than the line before it, so joining the segments gives the file back byte for byte. A segment
 * with no sidecar lines gets no sidecar file.
 */
export class SidecarCutter {
  private readonly splitter = new LineSplitter((line) => this.line(line));
  private at = 0;
  private current: Buffer[] = [];

  constructor(
    private readonly firsts: readonly number[],
    private readonly sink: SegmentSink,
  ) {}

  push(chunk: Buffer): void {
    if (this.firsts.length > 0) this.splitter.push(chunk);
  }

  private line(line: Buffer): void {
    const seq = lineSequence(line);
    let to = this.at;
    if (seq !== null) while (to + 1 < this.firsts.length && this.firsts[to + 1]! <= seq) to++;
    if (to !== this.at) {
      this.flush();
      this.at = to;
    }
    this.current.push(line);
  }

  private flush(): void {
    if (this.current.length === 0) return;
    this.sink(this.firsts[this.at]!, Buffer.concat(this.current), this.current.length);
    this.current = [];
  }

  end(): void {
    this.flush();
  }
}

export function countLines(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}
