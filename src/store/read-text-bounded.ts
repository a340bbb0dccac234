// Reads a text file that a person or an agent wrote, without trusting its size or its bytes:
// at most `maxBytes` are read, and binary content is recognised instead of parsed.
import fs from "node:fs";

export type BoundedText =
  | { status: "missing" }
  | { status: "not_a_file" }
  | { status: "unreadable"; reason: string }
  | {
      status: "ok";
      /** The decoded text of the bytes read ("" when `binary`). */
      text: string;
      /** The file's full size in bytes. */
      size: number;
      mtimeMs: number;
      /** True when the file is larger than `maxBytes` and only its start was read. */
      truncated: boolean;
      /** True when the bytes are not text (a NUL byte, or mostly undecodable). */
      binary: boolean;
    };

// A few undecodable bytes happen in text saved in a legacy encoding; mostly undecodable is not text.
const MAX_REPLACEMENT_RATIO = 0.05;

export function readTextBounded(file: string, maxBytes: number): BoundedText {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (err) {
    return openFailure(err);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { status: "not_a_file" };
    const length = Math.min(stat.size, maxBytes);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = fs.readSync(fd, buffer, read, length - read, read);
      if (n === 0) break;
      read += n;
    }
    const bytes = buffer.subarray(0, read);
    const truncated = stat.size > maxBytes;
    if (bytes.includes(0)) return { status: "ok", text: "", size: stat.size, mtimeMs: stat.mtimeMs, truncated, binary: true };
    const text = bytes.toString("utf8");
    // A cut at `maxBytes` may split the last character; that one replacement character is not garbage.
    const replacements = (text.match(/\uFFFD/g) ?? []).length - (truncated ? 1 : 0);
    const binary = text.length > 0 && replacements / text.length > MAX_REPLACEMENT_RATIO;
    return { status: "ok", text: binary ? "" : text, size: stat.size, mtimeMs: stat.mtimeMs, truncated, binary };
  } catch (err) {
    return { status: "unreadable", reason: errorCode(err) };
  } finally {
    fs.closeSync(fd);
  }
}

function openFailure(err: unknown): BoundedText {
  const code = errorCode(err);
  if (code === "ENOENT" || code === "ENOTDIR") return { status: "missing" };
  if (code === "EISDIR") return { status: "not_a_file" };
  return { status: "unreadable", reason: code };
}

function errorCode(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : err instanceof Error ? err.message : String(err);
}
