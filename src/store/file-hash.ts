// Reading and hashing whole files with one buffer reused across calls, for the verifier's tens of
// thousands of small files: no per-file allocation or fstat, and a one-shot hash when a file fits.
import fs from "node:fs";
import { HASH_PREFIX, nodeCrypto } from "../core/hash.js";

const CHUNK = 1024 * 1024;
// Shared by every call: the reads are synchronous, so no two calls interleave.
let shared: Buffer | undefined;

function openOrNull(file: string): number | null {
  try {
    return fs.openSync(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** The file's hash (`sha256:<hex>`), or null when it does not exist. Other errors are thrown. */
export function sha256FileOrNull(file: string): string | null {
  const fd = openOrNull(file);
  if (fd === null) return null;
  try {
    shared ??= Buffer.allocUnsafe(CHUNK);
    let n = fs.readSync(fd, shared, 0, CHUNK, null);
    // A regular file reads short only at its end: a small file is hashed in one call.
    if (n < CHUNK) return HASH_PREFIX + nodeCrypto().hash("sha256", shared.subarray(0, n), "hex");
    const running = nodeCrypto().createHash("sha256");
    while (n > 0) {
      running.update(shared.subarray(0, n));
      n = fs.readSync(fd, shared, 0, CHUNK, null);
    }
    return HASH_PREFIX + running.digest("hex");
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The file's bytes, or null when it does not exist. The result is a view of a shared buffer: it is valid
 * only until the next call of this function or of sha256FileOrNull. Copy it to keep it.
 */
export function readFileShared(file: string): Buffer | null {
  const fd = openOrNull(file);
  if (fd === null) return null;
  try {
    shared ??= Buffer.allocUnsafe(CHUNK);
    let length = 0;
    for (;;) {
      if (length === shared.length) {
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

/** The file's bytes in a buffer of its own, or null when it does not exist. */
export function readFileOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** The file's text (UTF-8), or null when it does not exist. Other errors are thrown. */
export function readTextOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}
