// JSONL: appends are one write of one whole line; readers skip and count torn, unparseable or over-long
// lines (over READ_LIMITS.jsonlLine), so memory stays bounded whatever the file holds.
import fs from "node:fs";
import path from "node:path";
import { ensureDir, ioFailure, openForWriting, writeAll } from "./atomic-write.js";
import { defaultFileMode } from "./layout.js";
import { crashPoint } from "./crash-points.js";
import { noteAppend } from "./effect-journal.js";
import { READ_LIMITS } from "./read-limits.js";
import { openRegularFile, refusalError } from "./read-text-bounded.js";

/**
 * Append one complete line (a JSON value or an already-serialized line) with a single write.
 * `durable` also fdatasyncs it, for files another file's contents vouch for (the integrity chain).
 */
export function appendJsonLine(file: string, value: unknown, options: { mode?: number; durable?: boolean } = {}): void {
  const line = typeof value === "string" ? value : JSON.stringify(value);
  if (line.includes("\n")) throw new Error("a JSONL line must not contain a newline");
  ensureDir(path.dirname(file));
  const fd = openForWriting(file, "append", options.mode ?? defaultFileMode(file));
  try {
    const whole = line + "\n";
    noteAppend(file, fd, whole);
    crashPoint("append:torn", file, () => fs.writeSync(fd, whole.slice(0, Math.ceil(whole.length / 2))));
    writeAll(fd, whole, file); // a line cut short by a full disk is a torn line readers skip
    if (options.durable) fs.fdatasyncSync(fd);
    crashPoint("append:after-write", file);
  } catch (err) {
    throw ioFailure(err, file);
  } finally {
    fs.closeSync(fd);
  }
}

/** Open a JSONL file for reading: a regular file inside the workspace, or a thrown refusal (not_found when missing). */
export function openJsonl(file: string): number {
  const opened = openRegularFile(file);
  if (opened.status !== "ok") throw refusalError(file, opened);
  return opened.fd;
}

function readAt(fd: number, buffer: Buffer, offset: number, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => fs.read(fd, buffer, offset, length, position, (err, n) => (err ? reject(err) : resolve(n))));
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
  /** Lines longer than this are skipped and counted (default READ_LIMITS.jsonlLine). */
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;

/**
 * Stream a JSONL file line by line with bounded memory. A final line without `\n` is a torn append:
 * it is skipped and counted, never parsed. Returns stats through `stats` as the iteration ends.
 */
export async function* readJsonl<T = unknown>(file: string, options: JsonlReadOptions = {}, stats?: JsonlReadStats): AsyncGenerator<JsonlRecord<T>> {
  const s: JsonlReadStats = stats ?? { lines: 0, skipped: 0, tornTail: false, endOffset: 0 };
  const start = options.fromOffset ?? 0;
  const maxLine = options.maxLineBytes ?? READ_LIMITS.jsonlLine;
  s.endOffset = start;
  const fd = openJsonl(file);
  try {
    const chunkSize = options.chunkSize ?? 256 * 1024;
    let buffer = Buffer.alloc(chunkSize);
    let carry = 0; // bytes of an unfinished line kept at the front of `buffer`
    let overlong = false; // inside a line longer than maxLine: its bytes are dropped up to its newline
    let position = start;
    let lineStart = start;
    for (;;) {
      if (carry === buffer.length) {
        const bigger = Buffer.alloc(buffer.length * 2);
        buffer.copy(bigger, 0, 0, carry);
        buffer = bigger;
      }
      const bytesRead = await readAt(fd, buffer, carry, buffer.length - carry, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const end = carry + bytesRead;
      let cursor = 0;
      for (;;) {
        const nl = buffer.indexOf(NEWLINE, cursor);
        if (nl === -1 || nl >= end) break;
        const record = overlong ? skipLine(s) : parseLine<T>(buffer, cursor, nl, lineStart, s);
        overlong = false;
        s.endOffset = position - (end - nl) + 1;
        lineStart = s.endOffset;
        cursor = nl + 1;
        if (record) yield record;
      }
      carry = end - cursor;
      if (carry > maxLine) {
        overlong = true;
        carry = 0;
      } else if (carry > 0) buffer.copy(buffer, 0, cursor, end);
    }
    if (carry > 0 || overlong) {
      s.lines++;
      s.skipped++;
      s.tornTail = true;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function skipLine(s: JsonlReadStats): null {
  s.lines++;
  s.skipped++;
  return null;
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
  /** The line without its `\n` (and without a trailing `\r`); "" for an over-long line. */
  text: string;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** False only for a final line with no `\n` (a torn append). */
  complete: boolean;
  /** True when the line is longer than the bound and was not read (`text` is then ""). */
  overlong?: true;
}

/**
 * Stream the raw lines of a file synchronously, up to `endOffset` (default: the whole file), with
 * bounded memory. Lines are not parsed: callers that must report *which* line is unparseable (the
 * integrity chain) decide for themselves.
 */
export function* readLinesSync(file: string, options: { endOffset?: number; chunkSize?: number; maxLineBytes?: number } = {}): Generator<RawLine> {
  const fd = openJsonl(file);
  const maxLine = options.maxLineBytes ?? READ_LIMITS.jsonlLine;
  try {
    const end = options.endOffset ?? fs.fstatSync(fd).size;
    let buffer = Buffer.allocUnsafe(options.chunkSize ?? 1024 * 1024);
    let carry = 0;
    let overlong = false;
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
        const next = position - (filled - nl) + 1;
        if (overlong) yield { text: "", offset: lineStart, complete: true, overlong: true };
        else {
          const stop = nl > cursor && buffer[nl - 1] === 0x0d ? nl - 1 : nl;
          yield { text: buffer.toString("utf8", cursor, stop), offset: lineStart, complete: true };
        }
        overlong = false;
        lineStart = next;
        cursor = nl + 1;
      }
      carry = filled - cursor;
      if (carry > maxLine) {
        overlong = true;
        carry = 0;
      } else if (carry > 0) buffer.copy(buffer, 0, cursor, filled);
    }
    if (overlong) yield { text: "", offset: lineStart, complete: false, overlong: true };
    else if (carry > 0) yield { text: buffer.toString("utf8", 0, carry), offset: lineStart, complete: false };
  } finally {
    fs.closeSync(fd);
  }
}
