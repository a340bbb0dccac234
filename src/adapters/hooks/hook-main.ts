// Process entry of `aop hook claude`: reads stdin (bounded), runs the hook, exits 0 — always, and
// within a second even if the workspace is slow (a watchdog ends the process).
import fs from "node:fs";
import { clockFromEnv } from "../../core/clock.js";
import { MAX_EVENT_BYTES, rescueUnspooled, runClaudeHook } from "../../domains/agents/index.js";

export const WATCHDOG_MS = 900;

async function readStdin(chunks: Buffer[]): Promise<string> {
  if (process.stdin.isTTY) return "";
  let size = 0;
  for await (const chunk of process.stdin) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_EVENT_BYTES) return ""; // refuse to buffer absurd input; logged as empty
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * What stdin holds right now, without waiting: what the stream buffered, then the pipe itself (which
 * is non-blocking once process.stdin exists, so a read that finds nothing fails with EAGAIN).
 */
function takeWhatArrived(chunks: Buffer[]): void {
  if (process.stdin.isTTY) return;
  let size = chunks.reduce((n, c) => n + c.length, 0);
  try {
    for (let c: unknown; (c = process.stdin.read()) !== null && size <= MAX_EVENT_BYTES; size += (c as Buffer).length) chunks.push(c as Buffer);
    const buf = Buffer.alloc(64 * 1024);
    for (let n: number; size <= MAX_EVENT_BYTES && (n = fs.readSync(0, buf, 0, buf.length, null)) > 0; size += n) chunks.push(Buffer.from(buf.subarray(0, n)));
  } catch {
    // EAGAIN (nothing more yet) or a closed stdin: what we have is all there is
  }
}

export async function hookMain(options: { root?: string } = {}): Promise<void> {
  const received: Buffer[] = [];
  const clock = clockFromEnv();
  const watchdog = setTimeout(() => {
    // On a starved machine the timer can fire before the event loop has even read stdin.
    takeWhatArrived(received);
    rescueUnspooled({ stdin: Buffer.concat(received).toString("utf8"), env: process.env, clock, ...(options.root ? { root: options.root } : {}) });
    process.exit(0);
  }, WATCHDOG_MS);
  watchdog.unref();
  // The agent may stop reading early; that must not turn into an error exit.
  process.stdout.on("error", () => undefined);
  try {
    await runClaudeHook({
      stdin: await readStdin(received),
      env: process.env,
      clock,
      ...(options.root ? { root: options.root } : {}),
      stdout: (t) => void process.stdout.write(t),
      stderr: (t) => void process.stderr.write(t),
      doctorFamilies: async () => (await import("../../app/doctor-checks.js")).DOCTOR_FAMILIES,
    });
  } catch {
    // runClaudeHook logs its own failures; nothing may reach the agent
  }
  process.exitCode = 0;
}
