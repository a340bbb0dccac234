// A small tmpfs for full-disk tests, and read-only folders: mounted where the test runs as root with the
// capability, otherwise the tests that need them are skipped with the reason shown.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { atFileEnd } from "./file-end.js";
import { tempDir } from "./tmp.js";

/** A fresh tmpfs of `sizeKb`, or the reason none can be mounted here. */
export function smallDisk(sizeKb = 512): { dir: string } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: "full-disk tests mount a tmpfs and need root" };
  const dir = tempDir("aop-disk-");
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKb}k`, "tmpfs", dir], { encoding: "utf8" });
  if (r.status !== 0) return { skip: `cannot mount a tmpfs here: ${(r.stderr || r.error?.message || "").trim()}` };
  atFileEnd(() => spawnSync("umount", [dir]));
  return { dir };
}

/** Fill the disk holding `dir` until writes fail with ENOSPC. */
export function fillDisk(dir: string): void {
  const filler = path.join(dir, "filler");
  const fd = fs.openSync(filler, "w");
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  } finally {
    fs.closeSync(fd);
  }
}

/** Mounts `dir` over itself read-only (undone when the test file ends), or says why it cannot be here. */
export function readOnlyMount(dir: string): { skip: string } | null {
  if (process.getuid?.() !== 0) return { skip: "a read-only mount needs root" };
  const bind = spawnSync("mount", ["--bind", dir, dir], { encoding: "utf8" });
  if (bind.status !== 0) return { skip: `cannot bind-mount here: ${(bind.stderr || bind.error?.message || "").trim()}` };
  atFileEnd(() => spawnSync("umount", [dir]));
  const ro = spawnSync("mount", ["-o", "remount,bind,ro", dir], { encoding: "utf8" });
  if (ro.status !== 0) return { skip: `cannot mount read-only here: ${(ro.stderr || ro.error?.message || "").trim()}` };
  return null;
}
