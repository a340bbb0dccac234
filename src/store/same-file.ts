// Whether two stats name the same file: a descriptor's and a path's, to notice that the path was
// removed or replaced while the descriptor stayed open (an open file's inode is never reused).
import type fs from "node:fs";

export function sameFile(a: fs.Stats, b: fs.Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev;
}
