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

export interface RawLine {
  /** The line without its `\n` (and without a trailing `\r`); "" for an over-long line. */
  text: string;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Byte offset just past the line's `\n` (for a torn line: the end of the file). */
  end: number;
  /** False only for a final line with no `\n` (a torn append). */
  complete: boolean;
  /** True when the line is longer than the bound and was not read (`text` is then ""). */
  overlong?: true;
  /** With `raw`: the line's bytes are `bytes[from, to)` (valid until the next line is read), and `text` is "". */
  bytes?: Buffer;
  from?: number;
  to?: number;
}

/**
 * The one JSONL line reader: streams the raw lines of a file synchronously from `fromOffset` up to
 * `endOffset` (default: the file's size when opened), with bounded memory. Lines are not parsed:
 * readJsonl parses and counts; callers that must report *which* line is unparseable (the integrity
 * chain) decide for themselves.
 */
export function* readLinesSync(file: string, options: { fromOffset?: number; endOffset?: number; chunkSize?: number; maxLineBytes?: number; raw?: boolean } = {}): Generator<RawLine> {
  const fd = openJsonl(file);
  const maxLine = options.maxLineBytes ?? READ_LIMITS.jsonlLine;
  try {
    const end = options.endOffset ?? fs.fstatSync(fd).size;
    let buffer = Buffer.allocUnsafe(options.chunkSize ?? 256 * 1024);
    let carry = 0; // bytes of an unfinished line kept at the front of `buffer`
    let overlong = false; // inside a line longer than maxLine: its bytes are dropped up to its newline
    let position = options.fromOffset ?? 0;
    let lineStart = position;
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
        const lineEnd = position - (filled - nl) + 1;
        if (overlong) yield { text: "", offset: lineStart, end: lineEnd, complete: true, overlong: true };
        else {
          const stop = nl > cursor && buffer[nl - 1] === 0x0d ? nl - 1 : nl; // tolerate CRLF
          if (options.raw) yield { text: "", bytes: buffer, from: cursor, to: stop, offset: lineStart, end: lineEnd, complete: true };
          else yield { text: buffer.toString("utf8", cursor, stop), offset: lineStart, end: lineEnd, complete: true };
        }
        overlong = false;
        lineStart = lineEnd;
        cursor = nl + 1;
      }
      carry = filled - cursor;
      if (carry > maxLine) {
        overlong = true;
        carry = 0;
      } else if (carry > 0) buffer.copy(buffer, 0, cursor, filled);
    }
    if (overlong) yield { text: "", offset: lineStart, end: position, complete: false, overlong: true };
    else if (carry > 0) yield { text: buffer.toString("utf8", 0, carry), offset: lineStart, end: lineStart + carry, complete: false };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The values of a JSONL file, line by line with bounded memory. A blank line is neither data nor
 * corruption; an unparseable line is skipped and counted; a final line without `\n` is a torn append:
 * skipped and counted, never parsed. Returns stats through `stats` as the iteration ends.
 */
export async function* readJsonl<T = unknown>(file: string, options: JsonlReadOptions = {}, stats?: JsonlReadStats): AsyncGenerator<JsonlRecord<T>> {
  const s: JsonlReadStats = stats ?? { lines: 0, skipped: 0, tornTail: false, endOffset: 0 };
  s.endOffset = options.fromOffset ?? 0;
  for (const line of readLinesSync(file, options)) {
    s.lines++;
    if (!line.complete) {
      s.skipped++;
      s.tornTail = true;
      break;
    }
    s.endOffset = line.end;
    if (line.overlong) {
      s.skipped++;
      continue;
    }
    if (line.text === "") continue;
    let value: T;
    try {
      value = JSON.parse(line.text) as T;
    } catch {
      s.skipped++;
      continue;
    }
    yield { offset: line.offset, value };
  }
}
