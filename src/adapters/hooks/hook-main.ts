// Process entry of `aop hook claude`: reads stdin (bounded), runs the hook, exits 0 — always, and
// within a second even if the workspace is slow (a watchdog ends the process). It runs after every
// tool call of the agent, so it creates no stream it does not need (docs/performance.md): stdin is read
// with fs.readSync to its end (Claude Code writes the event and closes it), and process.stdout /
// process.stderr exist only once something is written to them.
import fs from "node:fs";
import { clockFromEnv, type Clock } from "../../core/clock.js";
import { provideValidators } from "../../catalog/load-validator.js";
import { MAX_EVENT_BYTES, rescueUnspooled, runClaudeHook } from "../../domains/agents/index.js";

export const WATCHDOG_MS = 900;

/**
 * stdin to its end, or "" for a terminal (any character device: node:tty would load the net module),
 * a closed stdin or past MAX_EVENT_BYTES (logged as empty).
 */
async function readStdin(chunks: Buffer[]): Promise<string> {
  let size = 0;
  try {
    if (fs.fstatSync(0).isCharacterDevice()) return "";
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = fs.readSync(0, buf, 0, buf.length, null);
      if (n === 0) break;
      size += n;
      if (size > MAX_EVENT_BYTES) return ""; // refuse to buffer absurd input
      chunks.push(buf.subarray(0, n));
    }
  } catch (err) {
    // A non-blocking stdin with nothing in it yet (EAGAIN): the stream waits for the rest.
    if ((err as NodeJS.ErrnoException).code === "EAGAIN") return readStdinStream(chunks, size);
    if ((err as NodeJS.ErrnoException).code !== "EOF") return "";
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readStdinStream(chunks: Buffer[], size: number): Promise<string> {
  for await (const chunk of process.stdin) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_EVENT_BYTES) return "";
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function writeTo(stream: "stdout" | "stderr"): (text: string) => void {
  let guarded = false;
  return (text) => {
    const out = process[stream];
    // The agent may stop reading early; that must not turn into an error exit.
    if (!guarded) out.on("error", () => undefined);
    guarded = true;
    out.write(text);
  };
}

/** Runs the hook on one event's text (the cache of the hook's bundle is made by running this, scripts/bundle-bins.mjs). */
export async function handleHookEvent(stdin: string, options: { root?: string; clock?: Clock } = {}): Promise<void> {
  // Literal paths, so that the hook's bundle holds the validators of a workspace's policy.yaml and
  // gates.yaml (each initialised only when a file needs it).
  provideValidators({
    "config/policy.user": () => import("../../catalog/generated/validators/config__policy.user.js"),
    "config/policy": () => import("../../catalog/generated/validators/config__policy.js"),
    "config/gates": () => import("../../catalog/generated/validators/config__gates.js"),
  });
  try {
    await runClaudeHook({
      stdin,
      env: process.env,
      clock: options.clock ?? clockFromEnv(),
      ...(options.root ? { root: options.root } : {}),
      stdout: writeTo("stdout"),
      stderr: writeTo("stderr"),
      doctorFamilies: async () => (await import("../../app/doctor-checks.js")).DOCTOR_FAMILIES,
    });
  } catch {
    // runClaudeHook logs its own failures; nothing may reach the agent
  }
}

export async function hookMain(options: { root?: string } = {}): Promise<void> {
  const received: Buffer[] = [];
  const clock = clockFromEnv();
  const watchdog = setTimeout(() => {
    // On a starved machine the second can be up before the event was spooled: it is spooled now.
    rescueUnspooled({ stdin: Buffer.concat(received).toString("utf8"), env: process.env, clock, ...(options.root ? { root: options.root } : {}) });
    process.exit(0);
  }, WATCHDOG_MS);
  watchdog.unref();
  await handleHookEvent(await readStdin(received), { clock, ...options });
  process.exitCode = 0;
}
