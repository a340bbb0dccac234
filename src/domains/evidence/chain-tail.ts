// Reading the end of a chain file without reading the chain: the last complete lines and any torn bytes.
import fs from "node:fs";

export interface ChainTail {
  size: number;
  /** Offset just past the last `\n`: anything after it is a torn append. */
  completeEnd: number;
  /** Up to the requested number of last complete lines, oldest first (empty when there are none). */
  lines: string[];
}

/** The last `count` complete lines of `file` (fewer if it has fewer), or null when it does not exist. */
export function readChainTail(file: string, count = 1): ChainTail | null {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  try {
    const size = fs.fstatSync(fd).size;
    for (let window = 16 * 1024; ; window *= 4) {
      const start = Math.max(0, size - window);
      const buffer = Buffer.allocUnsafe(size - start);
      fs.readSync(fd, buffer, 0, buffer.length, start);
      const lastNl = buffer.lastIndexOf(0x0a);
      if (lastNl === -1) {
        if (start > 0) continue; // the torn part is longer than the window
        return { size, completeEnd: 0, lines: [] };
      }
      // Walk back over `count` lines; each must start inside the window unless the window is the whole file.
      const lines: string[] = [];
      let end = lastNl;
      let complete = true;
      while (lines.length < count) {
        const prevNl = end === 0 ? -1 : buffer.lastIndexOf(0x0a, end - 1);
        if (prevNl === -1 && start > 0) {
          complete = false;
          break;
        }
        lines.unshift(buffer.toString("utf8", prevNl + 1, end).replace(/\r$/, ""));
        if (prevNl === -1) break;
        end = prevNl;
      }
      if (complete) return { size, completeEnd: start + lastNl + 1, lines };
    }
  } finally {
    fs.closeSync(fd);
  }
}
