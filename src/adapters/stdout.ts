// Where the output of an aop process goes: a command's (adapters/cli) and a hook's answer (adapters/hooks),
// one writer with two policies for a reader that went away. Anything but a terminal — a regular file or
// /dev/null (hooks and CI discard or redirect it), a pipe or a socket (agents read output through one) —
// is written with fs.writeSync, as Node's own stream does for files and, on Linux, for pipes: creating
// process.stdout loads net and some twenty stream modules, 4–6 ms of a small command. A terminal gets
// process.stdout, with its TTY detection; so does a pipe that turns out non-blocking (EAGAIN), from that
// write on, for its back-pressure.
import fs from "node:fs";

let direct: boolean | undefined;
let pipeGuarded = false;

/** fd 1 is not a terminal: synchronous writes. */
function writesDirectly(): boolean {
  if (direct !== undefined) return direct;
  try {
    const target = fs.fstatSync(1);
    direct = target.isFile() || target.isFIFO() || target.isSocket() || (target.isCharacterDevice() && target.rdev === fs.statSync("/dev/null").rdev);
  } catch {
    direct = false; // no /dev/null (Windows) or no fd 1: let Node decide
  }
  return direct;
}

/**
 * What a reader that stops early means. A command (`checkpoint show | head`): not an error, end with the
 * command's exit code. A hook: the rest of its answer is dropped and it finishes its work (it records the
 * event whoever reads its answer).
 */
type OnClosedPipe = "exit" | "drop";

function guardStream(onClosed: OnClosedPipe): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (onClosed === "drop") return;
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

function writeThroughStream(data: string | Buffer, onClosed: OnClosedPipe): void {
  guardStream(onClosed);
  process.stdout.write(data);
}

function write(text: string, onClosed: OnClosedPipe): void {
  if (!writesDirectly()) return writeThroughStream(text, onClosed);
  const bytes = Buffer.from(text, "utf8");
  let written = 0;
  try {
    while (written < bytes.length) written += fs.writeSync(1, bytes, written, bytes.length - written);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EAGAIN") {
      // A non-blocking pipe that is full: the stream waits for it, for this write and every later one.
      direct = false;
      return writeThroughStream(bytes.subarray(written), onClosed);
    }
    if (onClosed === "drop") return;
    // The reader went away (`aop … | head`): end quietly, as the stream does.
    if (code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  }
}

/** A command's output; a reader that went away ends the command quietly. */
export function writeStdout(text: string): void {
  write(text, "exit");
}

/** A hook's answer: what a reader that went away (or a broken stdout) does not take is dropped, and the hook goes on. */
export function writeStdoutOrDrop(text: string): void {
  write(text, "drop");
}

/**
 * Resolves once stdout has taken what was written: a long output written in a loop that never yields
 * (a dry run of millions of entries) would otherwise queue in memory until the end.
 */
export async function stdoutDrained(): Promise<void> {
  if (writesDirectly() || !process.stdout.writableNeedDrain) return;
  await new Promise<void>((resolve) => process.stdout.once("drain", () => resolve()));
}
