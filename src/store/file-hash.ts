// Reading and hashing whole files with one buffer reused across calls, for the verifier's tens of
// thousands of small files: no per-file allocation, and a one-shot hash when a file fits. Every open goes
// through the bounded reader's checks (regular files only, inside the workspace, size bound).
import fs from "node:fs";
import { HASH_PREFIX, nodeCrypto } from "../core/hash.js";
import { openRegularFile, readFileBounded, refusalError, type OpenOptions } from "./read-text-bounded.js";
import { READ_LIMITS } from "./read-limits.js";

const CHUNK = 1024 * 1024;
// Shared by every call: the reads are synchronous, so no two calls interleave.
let shared: Buffer | undefined;

/** An open descriptor of a regular file no larger than `maxBytes`, or null when it does not exist; refusals throw. */
function openBounded(file: string, maxBytes: number, options: OpenOptions): { fd: number; size: number } | null {
  const opened = openRegularFile(file, options);
  if (opened.status === "missing") return null;
  if (opened.status !== "ok") throw refusalError(file, opened);
  if (opened.stat.size > maxBytes) {
    fs.closeSync(opened.fd);
    throw refusalError(file, { status: "too_large", size: opened.stat.size, limit: maxBytes });
  }
  return { fd: opened.fd, size: opened.stat.size };
}

/**
 * The file's hash (`sha256:<hex>`), or null when it does not exist. Read as a stream, at most `maxBytes`
 * (default: the step-log bound); a special file, a link out of the workspace or a larger file throws its code.
 */
export function sha256FileOrNull(file: string, options: OpenOptions & { maxBytes?: number } = {}): string | null {
  const maxBytes = options.maxBytes ?? READ_LIMITS.stepLog;
  const opened = openBounded(file, maxBytes, options);
  if (opened === null) return null;
  const { fd } = opened;
  try {
    shared ??= Buffer.allocUnsafe(CHUNK);
    let total = 0;
    let n = fs.readSync(fd, shared, 0, CHUNK, null);
    // A regular file reads short only at its end: a small file is hashed in one call.
    if (n < CHUNK) return HASH_PREFIX + nodeCrypto().hash("sha256", shared.subarray(0, n), "hex");
    const running = nodeCrypto().createHash("sha256");
    while (n > 0) {
      total += n;
      if (total > maxBytes) throw refusalError(file, { status: "too_large", size: total, limit: maxBytes }); // grew while read
      running.update(shared.subarray(0, n));
      n = fs.readSync(fd, shared, 0, CHUNK, null);
    }
    return HASH_PREFIX + running.digest("hex");
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The file's bytes (at most `maxBytes`, default the evidence bound), or null when it does not exist. The
 * result is a view of a shared buffer: it is valid only until the next call of this function or of
 * sha256FileOrNull. Copy it to keep it.
 */
export function readFileShared(file: string, options: OpenOptions & { maxBytes?: number } = {}): Buffer | null {
  const maxBytes = options.maxBytes ?? READ_LIMITS.evidence;
  const opened = openBounded(file, maxBytes, options);
  if (opened === null) return null;
  const { fd } = opened;
  try {
    shared ??= Buffer.allocUnsafe(CHUNK);
    let length = 0;
    for (;;) {
      if (length === shared.length) {
        if (length > maxBytes) throw refusalError(file, { status: "too_large", size: length, limit: maxBytes }); // grew while read
        const bigger = Buffer.allocUnsafe(shared.length * 2);
        shared.copy(bigger, 0, 0, length);
        shared = bigger;
      }
      const n = fs.readSync(fd, shared, length, shared.length - length, null);
      length += n;
      if (n === 0 || length < shared.length) break;
    }
    return shared.subarray(0, length);
  } finally {
    fs.closeSync(fd);
  }
}

/** The file's bytes in a buffer of its own (at most `maxBytes`), or null when it does not exist; refusals throw. */
export function readFileOrNull(file: string, maxBytes: number = READ_LIMITS.other): Buffer | null {
  return readFileBounded(file, maxBytes);
}

/** The file's text (UTF-8, at most `maxBytes`), or null when it does not exist; refusals throw their code. */
export function readTextOrNull(file: string, maxBytes: number = READ_LIMITS.other): string | null {
  const bytes = readFileBounded(file, maxBytes);
  return bytes === null ? null : bytes.toString("utf8");
}
