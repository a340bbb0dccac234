// JSONL: appends are one write of one whole line; readers skip and count torn or unparseable lines.
import fs from "node:fs";
import path from "node:path";
import { ensureDir } from "./atomic-write.js";
import { defaultFileMode } from "./layout.js";
import { crashPoint } from "./crash-points.js";
import { noteAppend } from "./effect-journal.js";

/**
 * Append one complete line (a JSON value or an already-serialized line) with a single write.
 * `durable` also fdatasyncs it, for files another file's contents vouch for (the integrity chain).
 */
export function appendJsonLine(file: string, value: unknown, options: { mode?: number; durable?: boolean } = {}): void {
  const line = typeof value === "string" ? value : JSON.stringify(value);
  if (line.includes("\n")) throw new Error("a JSONL line must not contain a newline");
  ensureDir(path.dirname(file));
  const fd = fs.openSync(file, "a", options.mode ?? defaultFileMode(file));
  try {
    const whole = line + "\n";
    noteAppend(file, fd, whole);
    crashPoint("append:torn", file, () => fs.writeSync(fd, whole.slice(0, Math.ceil(whole.length / 2))));
    fs.writeSync(fd, whole);
    if (options.durable) fs.fdatasyncSync(fd);
    crashPoint("append:after-write", file);
  } finally {
    fs.closeSync(fd);
  }
}

export interface JsonlRecord<T = unknown> {
  /** Byte offset of the line's first byte. */
  offset: number;
  value: T;
}

export interface JsonlReadStats {
  lines: number;
  skipped: number;
  /** True when the file ends with a line that has no trailing newline (a torn append). */
  tornTail: boolean;
  /** Offset just past the last complete line. */
  endOffset: number;
}

export interface JsonlReadOptions {
  fromOffset?: number;
  chunkSize?: number;
}

const NEWLINE = 0x0a;

/**
 * Stream a JSONL file line by line with bounded memory. A final line without `\n` is a torn append:
 * it is skipped and counted, never parsed. Returns stats through `stats` as the iteration ends.
 */
export async function* readJsonl<T = unknown>(file: string, options: JsonlReadOptions = {}, stats?: JsonlReadStats): AsyncGenerator<JsonlRecord<T>> {
  const s: JsonlReadStats = stats ?? { lines: 0, skipped: 0, tornTail: false, endOffset: 0 };
  const start = options.fromOffset ?? 0;
  s.endOffset = start;
  const fd = await fs.promises.open(file, "r");
  try {
    const chunkSize = options.chunkSize ?? 256 * 1024;
    let buffer = Buffer.alloc(chunkSize);
    let carry = 0; // bytes of an unfinished line kept at the front of `buffer`
    let position = start;
    let lineStart = start;
    for (;;) {
      if (carry === buffer.length) {
        const bigger = Buffer.alloc(buffer.length * 2);
        buffer.copy(bigger, 0, 0, carry);
        buffer = bigger;
      }
      const { bytesRead } = await fd.read(buffer, carry, buffer.length - carry, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const end = carry + bytesRead;
      let cursor = 0;
      for (;;) {
        const nl = buffer.indexOf(NEWLINE, cursor);
        if (nl === -1 || nl >= end) break;
        const record = parseLine<T>(buffer, cursor, nl, lineStart, s);
        s.endOffset = lineStart + (nl - cursor) + 1;
        lineStart = s.endOffset;
        cursor = nl + 1;
        if (record) yield record;
      }
      carry = end - cursor;
      if (carry > 0) buffer.copy(buffer, 0, cursor, end);
    }
    if (carry > 0) {
      s.lines++;
      s.skipped++;
      s.tornTail = true;
    }
  } finally {
    await fd.close();
  }
}

function parseLine<T>(buffer: Buffer, from: number, to: number, offset: number, s: JsonlReadStats): JsonlRecord<T> | null {
  s.lines++;
  let stop = to;
  if (stop > from && buffer[stop - 1] === 0x0d) stop--; // tolerate CRLF
  if (stop === from) return null; // blank line: not data, not corruption
  try {
    const value = JSON.parse(buffer.toString("utf8", from, stop)) as T;
    return { offset, value };
  } catch {
    s.skipped++;
    return null;
  }
}

export interface RawLine {
  /** The line without its `\n` (and without a trailing `\r`). */
  text: string;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** False only for a final line with no `\n` (a torn append). */
  complete: boolean;
}

/**
 * Stream the raw lines of a file synchronously, up to `endOffset` (default: the whole file), with
 * bounded memory. Lines are not parsed: callers that must report *which* line is unparseable (the
 * integrity chain) decide for themselves.
 */
export function* readLinesSync(file: string, options: { endOffset?: number; chunkSize?: number } = {}): Generator<RawLine> {
  const fd = fs.openSync(file, "r");
  try {
    const end = options.endOffset ?? fs.fstatSync(fd).size;
    let buffer = Buffer.allocUnsafe(options.chunkSize ?? 1024 * 1024);
    let carry = 0;
    let position = 0;
    let lineStart = 0;
    while (position < end) {
      if (carry === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, carry);
        buffer = bigger;
      }
      const bytesRead = fs.readSync(fd, buffer, carry, Math.min(buffer.length - carry, end - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const filled = carry + bytesRead;
      let cursor = 0;
      for (;;) {
        const nl = buffer.indexOf(NEWLINE, cursor);
        if (nl === -1 || nl >= filled) break;
        const stop = nl > cursor && buffer[nl - 1] === 0x0d ? nl - 1 : nl;
        yield { text: buffer.toString("utf8", cursor, stop), offset: lineStart, complete: true };
        lineStart += nl - cursor + 1;
        cursor = nl + 1;
      }
      carry = filled - cursor;
      if (carry > 0) buffer.copy(buffer, 0, cursor, filled);
    }
    if (carry > 0) yield { text: buffer.toString("utf8", 0, carry), offset: lineStart, complete: false };
  } finally {
    fs.closeSync(fd);
  }
}
