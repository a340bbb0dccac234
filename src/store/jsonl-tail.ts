// Reading the end of a JSONL file (a chain, anchors) without reading it all: the last complete lines and
// any torn bytes.
// Memory stays bounded whatever the file holds: the torn tail is scanned in chunks, never loaded whole,
// and a line over READ_LIMITS.jsonlLine comes back as "" (which no parser accepts).
import fs from "node:fs";
import { ioFailure } from "./atomic-write.js";
import { READ_LIMITS } from "./read-limits.js";
import { openRegularFile, refusalError } from "./read-text-bounded.js";

export interface JsonlTail {
  size: number;
  /** Offset just past the last `\n`: anything after it is a torn append. */
  completeEnd: number;
  /** Up to the requested number of last complete lines, oldest first (empty when there are none). */
  lines: string[];
}

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/** Offset of the last `\n` before `end`, or -1; reads backwards one chunk at a time. */
function lastNewlineBefore(fd: number, end: number, buffer: Buffer): number {
  for (let stop = end; stop > 0; ) {
    const start = Math.max(0, stop - CHUNK);
    const n = fs.readSync(fd, buffer, 0, stop - start, start);
    const at = buffer.lastIndexOf(NEWLINE, n - 1);
    if (at !== -1) return start + at;
    stop = start;
  }
  return -1;
}

// The last lines are read in one window that grows until it holds them: bounded, since no honest chain
// line comes near READ_LIMITS.jsonlLine and an append asks for at most MAX_MANIFEST_LAG + 1 lines.
const WINDOW_CAP = 32 * 1024 * 1024;

/** Up to `count` complete lines ending at the `\n` at `lastNl`, oldest first. */
function linesBefore(fd: number, lastNl: number, count: number): string[] {
  for (let window = 16 * 1024; ; window *= 4) {
    const start = Math.max(0, lastNl - window);
    const buffer = Buffer.allocUnsafe(lastNl - start);
    fs.readSync(fd, buffer, 0, buffer.length, start);
    const lines: string[] = [];
    let end = buffer.length;
    while (lines.length < count) {
      const prevNl = end === 0 ? -1 : buffer.lastIndexOf(NEWLINE, end - 1);
      if (prevNl === -1 && start > 0) break; // this line starts before the window
      lines.push(end - prevNl - 1 > READ_LIMITS.jsonlLine ? "" : buffer.toString("utf8", prevNl + 1, end).replace(/\r$/, ""));
      if (prevNl === -1) break;
      end = prevNl;
    }
    if (lines.length === count || start === 0) return lines.reverse();
    // A line longer than the largest window is not a chain entry: "" says so to the parser.
    if (window >= WINDOW_CAP) return lines.length > 0 ? lines.reverse() : [""];
  }
}

/**
 * The last `count` complete lines of `file` (fewer if it has fewer), or null when it does not exist. A
 * special file or a link out of the workspace throws its code.
 */
export function readJsonlTail(file: string, count = 1): JsonlTail | null {
  const opened = openRegularFile(file);
  if (opened.status === "missing") return null;
  if (opened.status !== "ok") throw refusalError(file, opened);
  const { fd } = opened;
  try {
    const size = opened.stat.size;
    const buffer = Buffer.allocUnsafe(CHUNK);
    const lastNl = lastNewlineBefore(fd, size, buffer);
    return { size, completeEnd: lastNl + 1, lines: lastNl === -1 ? [] : linesBefore(fd, lastNl, count) };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * readJsonlTail for a writer about to append, holding the file's lock: a torn final line (a writer killed
 * mid-append; under the lock nobody is mid-line) is cut off first, so the next line is not glued onto it,
 * and `onCut` is told how many bytes went. A cut that fails throws its own code (permission_denied…).
 */
export function readJsonlTailForAppend(file: string, count: number, onCut?: (removedBytes: number) => void): JsonlTail | null {
  const tail = readJsonlTail(file, count);
  if (tail === null || tail.completeEnd === tail.size) return tail;
  try {
    fs.truncateSync(file, tail.completeEnd);
  } catch (err) {
    throw ioFailure(err, file);
  }
  onCut?.(tail.size - tail.completeEnd);
  return { ...tail, size: tail.completeEnd };
}
