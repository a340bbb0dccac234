// Finding a sequence in a timeline file without reading it all. Sequences are strictly increasing in
// file order (docs/replay.md), so the line holding a sequence is found by bisecting byte offsets: each probe
// reads one small block, skips to the next line start and parses one line. Reads go through a
// `FileReader`, so tests can count the bytes a query reads.
import fs from "node:fs";
import { READ_LIMITS } from "../../store/read-limits.js";
import { openRegularFile, refusalError } from "../../store/read-text-bounded.js";
import { asEntry, type TimelineEntry } from "./timeline-entry.js";

/** Positioned reads of an open file: `fs.readSync`, or a wrapper that counts. */
export interface FileReader {
  read(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
}

const fsReader: FileReader = { read: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position) };

const NEWLINE = 0x0a;
const PROBE_BYTES = 4096;
/** Below this window a forward read is cheaper than more probes. */
const LINEAR_WINDOW = 64 * 1024;
/** Unparseable lines a probe steps over before it gives up and reads forward instead. */
const PROBE_SKIPS = 8;
/** A longer line is not held in memory: it is stepped over as a line that is not an entry. */
const MAX_LINE = READ_LIMITS.jsonlLine;
const SKIP_BLOCK = 64 * 1024;

export interface FileLine {
  /** Offset of the line's first byte. */
  start: number;
  /** Offset just past its `\n`. */
  end: number;
  /** The entry, or null when the line is not one (garbage, another shape, or blank). */
  entry: TimelineEntry | null;
  /** An empty line: not data, and not corruption either. */
  blank: boolean;
}

/** One open timeline file: positioned reads, complete lines only. */
export class TimelineFile {
  private buffer = Buffer.allocUnsafe(PROBE_BYTES);

  constructor(
    readonly fd: number,
    /** Just past the last complete line: a torn final line is never read. */
    readonly end: number,
    private readonly reader: FileReader = fsReader,
  ) {}

  /**
   * Opens `file` read-only through the store's reader (a FIFO, device or folder is refused, so is a link
   * out of the workspace); null when it does not exist. `end` excludes a torn final line.
   */
  static open(file: string, reader: FileReader = fsReader): TimelineFile | null {
    // The store's bounded open: a FIFO, device, folder or link out of the workspace is refused with its code.
    const opened = openRegularFile(file);
    if (opened.status === "missing") return null;
    if (opened.status !== "ok") throw refusalError(file, opened);
    const { fd, stat } = opened;
    try {
      const probe = new TimelineFile(fd, stat.size, reader);
      return new TimelineFile(fd, probe.lastLineEnd(stat.size), reader);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  /** Bytes [position, position + length) (fewer at the end of the file). */
  private readAt(position: number, length: number): Buffer {
    if (this.buffer.length < length) this.buffer = Buffer.allocUnsafe(Math.max(length, this.buffer.length * 2));
    let filled = 0;
    while (filled < length) {
      const n = this.reader.read(this.fd, this.buffer, filled, length - filled, position + filled);
      if (n === 0) break;
      filled += n;
    }
    return this.buffer.subarray(0, filled);
  }

  /** Offset just past the last `\n` among the first `size` bytes (0 when there is none). */
  private lastLineEnd(size: number): number {
    for (let to = size; to > 0; ) {
      const from = Math.max(0, to - PROBE_BYTES);
      const chunk = this.readAt(from, to - from);
      const nl = chunk.lastIndexOf(NEWLINE);
      if (nl !== -1) return from + nl + 1;
      to = from;
    }
    return 0;
  }

  /** The complete line starting at `start`, or null at the end. */
  lineAt(start: number): FileLine | null {
    if (start >= this.end) return null;
    for (let want = PROBE_BYTES; want <= MAX_LINE * 2; want *= 2) {
      // Bytes [start, start + want): a line within the bound ends inside the last of these reads.
      const chunk = this.readAt(start, Math.min(want, this.end - start));
      const nl = chunk.indexOf(NEWLINE);
      if (nl !== -1) {
        let stop = nl;
        if (stop > 0 && chunk[stop - 1] === 0x0d) stop--;
        return { start, end: start + nl + 1, entry: stop > MAX_LINE ? null : parseEntry(chunk, 0, stop), blank: stop === 0 };
      }
      if (start + chunk.length >= this.end) return null; // cannot happen: `end` is past a newline
    }
    return this.overlongLine(start, start + MAX_LINE * 2);
  }

  /** A line over MAX_LINE starting at `start`, with no newline before `from`: stepped over in blocks, none of it held. */
  private overlongLine(start: number, from: number): FileLine {
    return { start, end: this.lineStartAtOrAfter(from + 1, SKIP_BLOCK), entry: null, blank: false };
  }

  /** Offset of the first line that starts at or after `position` (read in blocks of `blockBytes`: small for a probe, larger to cross a long line). */
  lineStartAtOrAfter(position: number, blockBytes = PROBE_BYTES): number {
    if (position <= 0) return 0;
    for (let from = position - 1; from < this.end; from += blockBytes) {
      const chunk = this.readAt(from, Math.min(blockBytes, this.end - from));
      const nl = chunk.indexOf(NEWLINE);
      if (nl !== -1) return from + nl + 1;
    }
    return this.end;
  }

  /** The last line before `end` that is an entry (looking back over at most PROBE_SKIPS lines), or null. */
  lastEntryBefore(end: number): FileLine | null {
    let stop = end;
    for (let tries = 0; tries <= PROBE_SKIPS && stop > 0; tries++) {
      const start = this.lineStartBefore(stop);
      const line = this.lineAt(start);
      if (line?.entry) return line;
      stop = start;
    }
    return null;
  }

  /** Start of the line that ends at `end` (which is 0 or just past a `\n`): just past the `\n` before its own. */
  private lineStartBefore(end: number): number {
    return end <= 1 ? 0 : this.lastLineEnd(end - 1);
  }

  /**
   * A line start at or before the first line whose sequence is ≥ `sequence`, within [lo, hi) (line
   * starts): bisects until the window is small, then the caller reads forward from it.
   */
  seek(sequence: number, lo = 0, hi = this.end): number {
    while (hi - lo > LINEAR_WINDOW) {
      const mid = lo + Math.floor((hi - lo) / 2);
      let line = this.lineAt(this.lineStartAtOrAfter(mid));
      for (let skips = 0; line && !line.entry && skips < PROBE_SKIPS; skips++) line = this.lineAt(line.end);
      if (!line || line.start >= hi || !line.entry) return lo; // nothing to bisect on here: read forward from lo
      if (line.entry.sequence < sequence) lo = line.start;
      else hi = line.start;
    }
    return lo;
  }

  /** Lines from `start` to the end, in file order, read in blocks. */
  *linesFrom(start: number, blockBytes = 64 * 1024): Generator<FileLine> {
    let position = start;
    let block = Buffer.allocUnsafe(blockBytes);
    while (position < this.end) {
      const length = Math.min(block.length, this.end - position);
      let filled = 0;
      while (filled < length) {
        const n = this.reader.read(this.fd, block, filled, length - filled, position + filled);
        if (n === 0) break;
        filled += n;
      }
      let cursor = 0;
      for (;;) {
        const nl = block.indexOf(NEWLINE, cursor);
        if (nl === -1 || nl >= filled) break;
        let stop = nl;
        if (stop > cursor && block[stop - 1] === 0x0d) stop--;
        yield { start: position + cursor, end: position + nl + 1, entry: parseEntry(block, cursor, stop), blank: stop === cursor };
        cursor = nl + 1;
      }
      if (cursor === 0) {
        // No whole line in the block: a line longer than it (read again with a bigger one, up to the
        // line bound; a longer one is stepped over), or the file shrank since it was opened (stop).
        if (filled < length || position + filled >= this.end) return;
        if (block.length > MAX_LINE) {
          const line = this.overlongLine(position, position + filled);
          yield line;
          position = line.end;
          continue;
        }
        block = Buffer.allocUnsafe(block.length * 2);
        continue;
      }
      position += cursor;
    }
  }
}

function parseEntry(bytes: Buffer, from: number, to: number): TimelineEntry | null {
  if (to === from) return null;
  try {
    return asEntry(JSON.parse(bytes.toString("utf8", from, to)));
  } catch {
    return null;
  }
}
