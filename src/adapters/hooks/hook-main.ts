// Process entry of `aop hook <client>` (claude, codex, gemini, cursor, opencode, openclaw): reads stdin (bounded), runs the hook, exits 0 — always, and
// within a second even if the workspace is slow (a watchdog ends the process). It runs after every
// tool call of the agent, so it creates no stream it does not need (docs/performance.md): stdin is read
// with fs.readSync to its end (Claude Code writes the event and closes it; one over the read bound is
// scanned as it streams instead of held), its answer is written to a pipe or file with fs.writeSync
// (adapters/stdout.ts, the CLI's writer), and process.stderr exists only once something is written to it.
import fs from "node:fs";
import { clockFromEnv, type Clock } from "../../core/clock.js";
import { writeStdoutOrDrop } from "../stdout.js";
import { provideValidators } from "../../catalog/load-validator.js";
import { loadClientHook, loadEventScanner, MAX_EVENT_BYTES, rescueUnspooled, runClaudeHook, type HookClient, type ScannedEvent } from "../../domains/agents/index.js";

/** `claude`, or a client mapped through the hook event model. */
export type HookTarget = "claude" | HookClient;

export const WATCHDOG_MS = 900;

/**
 * What stdin gave: the event's bytes while they fit MAX_EVENT_BYTES; past that, a scan of the whole event
 * as it streams (the bytes held so far are handed to it and dropped), so memory stays within the bound.
 */
interface Received {
  chunks: Buffer[];
  size: number;
  scanner: EventScanner | null;
}

type EventScanner = InstanceType<Awaited<ReturnType<typeof loadEventScanner>>>;

async function take(received: Received, chunk: Buffer): Promise<void> {
  received.size += chunk.length;
  if (received.scanner) return received.scanner.push(chunk);
  if (received.size <= MAX_EVENT_BYTES) return void received.chunks.push(chunk);
  const scanner = new (await loadEventScanner())();
  for (const held of received.chunks) scanner.push(held);
  received.chunks = [];
  scanner.push(chunk);
  received.scanner = scanner;
}

/** The event as the hook reads it: its text, or the scan of one over the bound. */
function input(received: Received): { stdin: string; oversized?: ScannedEvent } {
  if (received.scanner) return { stdin: "", oversized: received.scanner.result() };
  return { stdin: Buffer.concat(received.chunks).toString("utf8") };
}

/** stdin to its end; nothing for a terminal (any character device: node:tty would load the net module) or a closed stdin. */
async function readStdin(received: Received): Promise<void> {
  try {
    if (fs.fstatSync(0).isCharacterDevice()) return;
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = fs.readSync(0, buf, 0, buf.length, null);
      if (n === 0) break;
      await take(received, buf.subarray(0, n));
    }
  } catch (err) {
    // A non-blocking stdin with nothing in it yet (EAGAIN): the stream waits for the rest.
    if ((err as NodeJS.ErrnoException).code === "EAGAIN") return readStdinStream(received);
    if ((err as NodeJS.ErrnoException).code !== "EOF") received.chunks = [];
  }
}

async function readStdinStream(received: Received): Promise<void> {
  for await (const chunk of process.stdin) await take(received, chunk as Buffer);
}

/** stderr (rarely written): its stream, whose errors are ignored — the agent may stop reading early. */
function writeStderr(): (text: string) => void {
  let guarded = false;
  return (text) => {
    if (!guarded) process.stderr.on("error", () => undefined);
    guarded = true;
    process.stderr.write(text);
  };
}

/** Runs the hook on one event's text (the cache of the hook's bundle is made by running this, scripts/bundle-bins.mjs). */
export async function handleHookEvent(stdin: string, options: { root?: string; clock?: Clock; oversized?: ScannedEvent; client?: HookTarget } = {}): Promise<void> {
  // Literal paths, so that the hook's bundle holds the validators of a workspace's policy.yaml, aop.yaml
  // and gates.yaml (each initialised only when a file needs it).
  provideValidators({
    "config/policy.user": () => import("../../catalog/generated/validators/config__policy.user.js"),
    "config/aop": () => import("../../catalog/generated/validators/config__aop.js"),
    "config/policy": () => import("../../catalog/generated/validators/config__policy.js"),
    "config/gates": () => import("../../catalog/generated/validators/config__gates.js"),
  });
  try {
    const io = {
      stdin,
      ...(options.oversized ? { oversized: options.oversized } : {}),
      env: process.env,
      clock: options.clock ?? clockFromEnv(),
      ...(options.root ? { root: options.root } : {}),
      // The answer (SessionStart's context, a Stop reminder) goes to a pipe without process.stdout, which
      // would load net and the stream modules (~8 ms of SessionStart: docs/performance.md).
      stdout: writeStdoutOrDrop,
      stderr: writeStderr(),
      doctorFamilies: async () => (await import("../../app/doctor-checks.js")).DOCTOR_FAMILIES,
    };
    // Other clients' events are small: one over the read bound is not theirs to scan (it is logged as empty).
    if (options.client && options.client !== "claude") await (await loadClientHook())(options.client, io);
    else await runClaudeHook(io);
  } catch {
    // runClaudeHook logs its own failures; nothing may reach the agent
  }
}

export async function hookMain(options: { root?: string; client?: HookTarget } = {}): Promise<void> {
  const received: Received = { chunks: [], size: 0, scanner: null };
  const clock = clockFromEnv();
  const watchdog = setTimeout(() => {
    // On a starved machine the second can be up before the event was spooled: it is spooled now.
    if ((options.client ?? "claude") === "claude") rescueUnspooled({ ...input(received), env: process.env, clock, ...(options.root ? { root: options.root } : {}) });
    process.exit(0);
  }, WATCHDOG_MS);
  watchdog.unref();
  await readStdin(received);
  const { stdin, oversized } = input(received);
  await handleHookEvent(stdin, { clock, ...options, ...(oversized ? { oversized } : {}) });
  process.exitCode = 0;
}
