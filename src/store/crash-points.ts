// Named crash points for crash tests (docs/kernel.md, "Crash points"): AOP_CRASH_AT=<point>[@<n>] makes
// this process SIGKILL itself the n-th time (default: the first) it passes that point; AOP_CRASH_TRACE=<file>
// appends every point passed (and the file it concerns) to that file, so a test can enumerate them.
// The environment is read once; with neither variable set, crashPoint is an empty function.
import fs from "node:fs";

export const CRASH_POINTS = [
  /** The operation's intent is durable; its handler has not started. */
  "ledger:after-intent",
  /** An effect is noted in the intent; the file is untouched. */
  "journal:after-note",
  /** A whole-file write's temp file is complete; the target is untouched. */
  "atomic:after-temp-write",
  /** The target holds the new bytes; its folder is not fsynced yet. */
  "atomic:after-rename",
  /** A never-overwritten file (gate evidence) is published under its name. */
  "create:after-link",
  /** Half of a JSONL line is written, then the process dies: a torn append. */
  "append:torn",
  /** A JSONL line is written (for the evidence chain: the manifest does not count it yet). */
  "append:after-write",
  /** A file was moved (a checkpoint into history/). */
  "move:after-rename",
  /** The handler returned; its result is not recorded yet. */
  "ledger:before-record",
  /** The result is recorded; the intent is not removed yet. */
  "ledger:after-record",
  /** A timeline line is written; its meta file is not updated yet. */
  "timeline:after-append",
] as const;

type CrashPoint = (typeof CRASH_POINTS)[number];

/** Passes a point: no-op unless a crash test armed it. `beforeDeath` runs just before the kill (a torn write). */
export type CrashPointFn = (point: CrashPoint, target?: string, beforeDeath?: () => void) => void;

const noop: CrashPointFn = () => undefined;

function armed(spec: string | undefined, traceFile: string | undefined): CrashPointFn {
  let crashAt: { point: string; hit: number } | null = null;
  if (spec) {
    const [point = "", nth] = spec.split("@");
    if (!(CRASH_POINTS as readonly string[]).includes(point)) {
      process.stderr.write(`warning: AOP_CRASH_AT names no crash point ('${point}'); known: ${CRASH_POINTS.join(", ")}\n`);
    } else {
      crashAt = { point, hit: nth === undefined ? 1 : Math.max(1, Number(nth) || 1) };
    }
  }
  let hits = 0;
  return (point, target, beforeDeath) => {
    if (traceFile) fs.appendFileSync(traceFile, `${point} ${target ?? ""}\n`);
    if (crashAt === null || point !== crashAt.point || ++hits !== crashAt.hit) return;
    beforeDeath?.();
    process.kill(process.pid, "SIGKILL");
    for (;;); // SIGKILL to ourselves is delivered before kill() returns; never run on regardless
  };
}

export const crashPoint: CrashPointFn = process.env.AOP_CRASH_AT || process.env.AOP_CRASH_TRACE ? armed(process.env.AOP_CRASH_AT, process.env.AOP_CRASH_TRACE) : noop;
