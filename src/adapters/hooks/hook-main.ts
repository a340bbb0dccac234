// Process entry of `aop hook claude`: reads stdin (bounded), runs the hook, exits 0 — always, and
// within a second even if the workspace is slow (a watchdog ends the process).
import { clockFromEnv } from "../../core/clock.js";
import { MAX_EVENT_BYTES, runClaudeHook } from "../../domains/agents/index.js";

export const WATCHDOG_MS = 900;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_EVENT_BYTES) return ""; // refuse to buffer absurd input; logged as empty
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function hookMain(options: { root?: string } = {}): Promise<void> {
  const watchdog = setTimeout(() => process.exit(0), WATCHDOG_MS);
  watchdog.unref();
  // The agent may stop reading early; that must not turn into an error exit.
  process.stdout.on("error", () => undefined);
  try {
    await runClaudeHook({
      stdin: await readStdin(),
      env: process.env,
      clock: clockFromEnv(),
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
