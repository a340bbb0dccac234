// Where command output goes. A regular file or /dev/null (hooks and CI often discard or redirect it) is
// written with fs.writeSync, as Node's own stream for a file does; creating process.stdout loads some
// twenty stream modules, which costs more than a small command's work. Terminals, pipes and sockets
// get process.stdout, with its TTY detection and back-pressure.
import fs from "node:fs";

let direct: boolean | undefined;
let pipeGuarded = false;

/** fd 1 is a regular file or /dev/null: synchronous writes, never a terminal. */
function writesDirectly(): boolean {
  if (direct !== undefined) return direct;
  try {
    const target = fs.fstatSync(1);
    direct = target.isFile() || (target.isCharacterDevice() && target.rdev === fs.statSync("/dev/null").rdev);
  } catch {
    direct = false; // no /dev/null (Windows) or no fd 1: let Node decide
  }
  return direct;
}

/** A reader that stops early (`checkpoint show | head`) is not an error: end with the command's exit code. */
function endQuietlyOnClosedPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
}

/** What colorEnabled needs to know about stdout (asked only when colors are not already decided). */
export const stdoutTarget = {
  get isTTY(): boolean {
    return !writesDirectly() && process.stdout.isTTY === true;
  },
};

export function writeStdout(text: string): void {
  if (!writesDirectly()) {
    endQuietlyOnClosedPipe();
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text, "utf8");
  for (let written = 0; written < bytes.length; ) written += fs.writeSync(1, bytes, written, bytes.length - written);
}

/**
 * Resolves once stdout has taken what was written: a long output written in a loop that never yields
 * (a dry run of millions of entries) would otherwise queue in memory until the end.
 */
export async function stdoutDrained(): Promise<void> {
  if (writesDirectly() || !process.stdout.writableNeedDrain) return;
  await new Promise<void>((resolve) => process.stdout.once("drain", () => resolve()));
}
