// sha256 of a file's bytes (`sha256:<hex>`), read in chunks so a large step log never sits in memory at once.
import fs from "node:fs";
import { createHash } from "node:crypto";
import { HASH_PREFIX } from "../core/hash.js";

const CHUNK = 1024 * 1024;
// One buffer reused by every call: the reads are synchronous, so no two calls can interleave.
let shared: Buffer | undefined;

/** The file's hash, or null when it does not exist. Other errors (EACCES, EISDIR) are thrown. */
export function sha256FileOrNull(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  try {
    shared ??= Buffer.allocUnsafe(CHUNK);
    const hash = createHash("sha256");
    for (;;) {
      const n = fs.readSync(fd, shared, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(shared.subarray(0, n));
    }
    return HASH_PREFIX + hash.digest("hex");
  } finally {
    fs.closeSync(fd);
  }
}

/** The file's bytes, or null when it does not exist. */
export function readFileOrNull(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}
