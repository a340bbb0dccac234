// The one way aop reads a workspace file, without trusting it: opened without blocking (a FIFO or device
// swapped in for a file must not hang or flood the reader), only regular files read, never through a
// symbolic link out of the workspace, and never more than a bound per file kind (docs/hardening.md).
import fs from "node:fs";
import { AopError } from "../core/errors.js";
import { displayPath, folderEscape, linkEscape, outsideWorkspaceError } from "./containment.js";

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

type SpecialKind = "folder" | "FIFO" | "socket" | "character device" | "block device" | "special file";

/** Why a file was not read. */
export type Refusal =
  | { status: "missing" }
  | { status: "not_a_file"; found: SpecialKind }
  | { status: "outside_workspace"; resolved: string }
  | { status: "too_large"; size: number; limit: number }
  | { status: "unreadable"; reason: string };

export interface OpenOptions {
  /** Folders already found inside the workspace during this scan (see containment.ts). */
  memo?: Set<string>;
}

export type Opened = { status: "ok"; fd: number; stat: fs.Stats } | Exclude<Refusal, { status: "too_large" }>;

function kindOf(stat: fs.Stats): SpecialKind {
  if (stat.isDirectory()) return "folder";
  if (stat.isFIFO()) return "FIFO";
  if (stat.isSocket()) return "socket";
  if (stat.isCharacterDevice()) return "character device";
  if (stat.isBlockDevice()) return "block device";
  return "special file";
}

function errnoOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : err instanceof Error ? err.message : String(err);
}

function openFailure(file: string, err: unknown): Opened {
  const code = errnoOf(err);
  if (code === "ENOENT" || code === "ENOTDIR") return { status: "missing" };
  if (code === "ENXIO") {
    // Opening a socket fails with ENXIO; say what it is.
    try {
      return { status: "not_a_file", found: kindOf(fs.statSync(file)) };
    } catch {
      return { status: "unreadable", reason: code };
    }
  }
  return { status: "unreadable", reason: code };
}

/**
 * Open a regular file for reading; the caller closes the descriptor. The final component is opened with
 * O_NOFOLLOW first, so only an actual link pays for resolving where it leads.
 */
export function openRegularFile(file: string, options: OpenOptions = {}): Opened {
  const viaFolder = folderEscape(file, options.memo);
  if (viaFolder !== null) return { status: "outside_workspace", resolved: viaFolder };
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS | NOFOLLOW);
  } catch (err) {
    if (errnoOf(err) !== "ELOOP") return openFailure(file, err);
    const outside = linkEscape(file, options.memo);
    if (outside !== null) return { status: "outside_workspace", resolved: outside };
    try {
      fd = fs.openSync(file, OPEN_FLAGS);
    } catch (again) {
      return openFailure(file, again);
    }
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isFile()) return { status: "ok", fd, stat };
    fs.closeSync(fd);
    return { status: "not_a_file", found: kindOf(stat) };
  } catch (err) {
    fs.closeSync(fd);
    return { status: "unreadable", reason: errnoOf(err) };
  }
}

/** Read up to `length` bytes from the start of an open file into `buffer`; returns how many were read. */
function readInto(fd: number, buffer: Buffer, length: number): number {
  let read = 0;
  while (read < length) {
    const n = fs.readSync(fd, buffer, read, length - read, read);
    if (n === 0) break;
    read += n;
  }
  return read;
}

export type BoundedBytes = { status: "ok"; bytes: Buffer; size: number; mtimeMs: number; truncated: boolean } | Refusal;

/**
 * The file's bytes, at most `maxBytes`. A larger file is refused (`too_large`), or with `truncate` its
 * first `maxBytes` are returned with `truncated: true`.
 */
export function readBytesBounded(file: string, maxBytes: number, options: OpenOptions & { truncate?: boolean } = {}): BoundedBytes {
  const opened = openRegularFile(file, options);
  if (opened.status !== "ok") return opened;
  const { fd, stat } = opened;
  try {
    if (stat.size > maxBytes && !options.truncate) return { status: "too_large", size: stat.size, limit: maxBytes };
    // One byte more than allowed tells a file that grew since fstat from one that did not.
    const want = Math.min(stat.size, maxBytes) + 1;
    const buffer = Buffer.allocUnsafe(want);
    const read = readInto(fd, buffer, want);
    if (read > maxBytes) {
      if (!options.truncate) return { status: "too_large", size: Math.max(stat.size, read), limit: maxBytes };
      return { status: "ok", bytes: buffer.subarray(0, maxBytes), size: Math.max(stat.size, read), mtimeMs: stat.mtimeMs, truncated: true };
    }
    return { status: "ok", bytes: buffer.subarray(0, read), size: read, mtimeMs: stat.mtimeMs, truncated: stat.size > maxBytes };
  } catch (err) {
    return { status: "unreadable", reason: errnoOf(err) };
  } finally {
    fs.closeSync(fd);
  }
}

/** What a refusal means, as the end of a sentence that starts with the file's name. */
export function describeRefusal(refusal: Refusal): string {
  switch (refusal.status) {
    case "missing":
      return "does not exist";
    case "not_a_file":
      return `is a ${refusal.found}, not a regular file: not read`;
    case "outside_workspace":
      return `leads outside the workspace (to ${refusal.resolved}) through a symbolic link: not read`;
    case "too_large":
      return `is ${refusal.size} bytes, over the ${formatLimit(refusal.limit)} limit for this kind of file: not read`;
    case "unreadable":
      return `cannot be read (${refusal.reason})`;
  }
}

/** A refusal as the rest of a finding's sentence, with the store's code (for reports that go on). */
export function refusalProblem(refusal: Refusal): string {
  return `${describeRefusal(refusal)} [${refusalCode(refusal)}]`;
}

/** The store's error code for a refusal. */
export function refusalCode(refusal: Refusal): "not_found" | "not_a_regular_file" | "path_outside_workspace" | "file_too_large" | "permission_denied" | "io_error" {
  switch (refusal.status) {
    case "missing":
      return "not_found";
    case "not_a_file":
      return "not_a_regular_file";
    case "outside_workspace":
      return "path_outside_workspace";
    case "too_large":
      return "file_too_large";
    case "unreadable":
      return refusal.reason === "EACCES" || refusal.reason === "EPERM" ? "permission_denied" : "io_error";
  }
}

/** A refusal as an error naming the file, its code and what to do. */
export function refusalError(file: string, refusal: Refusal): AopError {
  if (refusal.status === "outside_workspace") return outsideWorkspaceError(file, refusal.resolved);
  const code = refusalCode(refusal);
  const hint =
    refusal.status === "not_a_file"
      ? "replace it with a regular file (or remove it)"
      : refusal.status === "too_large"
        ? "this file is far larger than aop ever writes: inspect it, then remove or restore it"
        : refusal.status === "unreadable" && code === "permission_denied"
          ? "check the owner and mode of the file"
          : undefined;
  const reason = describeRefusal(refusal);
  return new AopError(code, `${displayPath(file)} ${reason}`, { details: { path: file, refusal: refusal.status, reason, ...("found" in refusal ? { found: refusal.found } : {}) }, ...(hint ? { hint } : {}) });
}

function formatLimit(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${bytes / (1024 * 1024 * 1024)} GiB`;
  if (bytes >= 1024 * 1024) return `${bytes / (1024 * 1024)} MiB`;
  return `${bytes / 1024} KiB`;
}

/** The file's bytes (at most `maxBytes`), or null when it does not exist; every other refusal throws its code. */
export function readFileBounded(file: string, maxBytes: number, options: OpenOptions = {}): Buffer | null {
  const read = readBytesBounded(file, maxBytes, options);
  if (read.status === "ok") return read.bytes;
  if (read.status === "missing") return null;
  throw refusalError(file, read);
}

export type BoundedText =
  | Refusal
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
      /** True when text (not binary) holds bytes that are not UTF-8, decoded as U+FFFD. */
      invalidUtf8?: boolean;
    };

// A few undecodable bytes happen in text saved in a legacy encoding; mostly undecodable is not text.
const MAX_REPLACEMENT_RATIO = 0.05;

/** A text file a person or an agent wrote: its first `maxBytes` at most, binary content recognised instead of parsed. */
export function readTextBounded(file: string, maxBytes: number): BoundedText {
  const read = readBytesBounded(file, maxBytes, { truncate: true });
  if (read.status !== "ok") return read;
  const { bytes, size, mtimeMs, truncated } = read;
  if (bytes.includes(0)) return { status: "ok", text: "", size, mtimeMs, truncated, binary: true };
  const text = bytes.toString("utf8");
  // A cut at `maxBytes` may split the last character; that one replacement character is not garbage.
  const replacements = (text.match(/\uFFFD/g) ?? []).length - (truncated ? 1 : 0);
  const binary = text.length > 0 && replacements / text.length > MAX_REPLACEMENT_RATIO;
  const invalidUtf8 = !binary && replacements > 0 && !isUtf8(bytes, truncated);
  return { status: "ok", text: binary ? "" : text, size, mtimeMs, truncated, binary, ...(invalidUtf8 ? { invalidUtf8 } : {}) };
}

/** Strict UTF-8 check (a character cut at the read bound is not an error); run only when U+FFFD appeared. */
function isUtf8(bytes: Buffer, truncated: boolean): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}
