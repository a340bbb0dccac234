// `done --verify`: runs an action's `done_when` through the user's shell ($SHELL -c, else /bin/sh -c)
// with a timeout; the whole process group is killed when time runs out. Output is streamed and its tail kept.
import fs from "node:fs";
import path from "node:path";

export interface VerifyOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** The shell to run it with (default: userShell(env)). */
  shell?: string;
  /** Receives output as it arrives (the CLI echoes it to stderr). */
  onOutput?: (chunk: Buffer) => void;
  /** Aborted when the call is interrupted: the command's group is killed and the result says so. */
  signal?: AbortSignal;
}

export interface VerifyResult {
  command: string;
  shell: string;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number;
  /** The last OUTPUT_TAIL_BYTES of stdout and stderr, interleaved as they arrived. */
  output: string;
  output_truncated: boolean;
  /** True when the run was interrupted (its exit status means nothing). */
  interrupted?: boolean;
}

const OUTPUT_TAIL_BYTES = 64 * 1024;
const KILL_GRACE_MS = 2_000;

/** The user's shell when it is an absolute path to an existing file, else /bin/sh. */
export function userShell(env: NodeJS.ProcessEnv): string {
  const shell = env.SHELL;
  if (shell && path.isAbsolute(shell) && fs.existsSync(shell)) return shell;
  return "/bin/sh";
}

export function verifyPassed(result: VerifyResult): boolean {
  return result.exit_code === 0 && !result.timed_out;
}

export function runDoneWhen(options: VerifyOptions): Promise<VerifyResult> {
  const shell = options.shell ?? userShell(options.env);
  const started = Date.now();
  return new Promise((resolve) => {
    let tail = Buffer.alloc(0);
    let truncated = false;
    let timedOut = false;
    // node:child_process on first use: the domain's tools load this module whether a check runs or not.
    const child = process.getBuiltinModule("node:child_process").spawn(shell, ["-c", options.command], { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const onData = (chunk: Buffer) => {
      options.onOutput?.(chunk);
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > OUTPUT_TAIL_BYTES) {
        tail = tail.subarray(tail.length - OUTPUT_TAIL_BYTES);
        truncated = true;
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS).unref();
    }, options.timeoutMs);
    const onAbort = () => killGroup("SIGKILL");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      const interrupted = options.signal?.aborted === true;
      resolve({ command: options.command, shell, exit_code: code, signal, timed_out: timedOut, duration_ms: Date.now() - started, output: tail.toString("utf8"), output_truncated: truncated, ...(interrupted ? { interrupted } : {}) });
    };
    child.on("error", (err) => {
      onData(Buffer.from(`${shell}: ${err.message}\n`));
      finish(null, null);
    });
    child.on("close", (code, signal) => finish(code, signal));
  });
}
