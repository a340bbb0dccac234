// Runs one gate step: an argv command (never a shell string) in its own process group, stdout and stderr
// written straight to the step's log file, with a timeout that kills the whole group.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import { openForWriting, writeAll } from "../../store/atomic-write.js";
import { killGroupAndWait, signalGroup } from "./process-group.js";

export interface StepProcessRequest {
  cmd: readonly string[];
  cwd: string;
  env: Record<string, string>;
  logFile: string;
  timeoutMs: number;
  /** After SIGTERM, how long the group gets before SIGKILL. */
  killGraceMs: number;
  /** Aborted when the run is interrupted: the step's group is killed at once. */
  signal?: AbortSignal;
}

export interface StepProcessResult {
  /** null when the process ended by a signal or could not start. */
  exit_code: number | null;
  timed_out: boolean;
  /** True when the run was interrupted while the step ran (its result means nothing). */
  interrupted?: boolean;
}

function appendNote(logFile: string, note: string): void {
  const fd = openForWriting(logFile, "append");
  try {
    writeAll(fd, `\n[aop] ${note}\n`, logFile);
  } finally {
    fs.closeSync(fd);
  }
}

export function runStepProcess(request: StepProcessRequest): Promise<StepProcessResult> {
  const [command, ...args] = request.cmd;
  // The log is a regular file inside the workspace (checked here, not just when it was reserved).
  const fd = openForWriting(request.logFile, "truncate");
  let child: ChildProcess;
  try {
    // detached: the step leads a new process group, so a timeout can kill everything it started.
    child = process.getBuiltinModule("node:child_process").spawn(command!, args, { cwd: request.cwd, env: request.env, stdio: ["ignore", fd, fd], detached: true });
  } catch (err) {
    // Arguments Node refuses outright (a NUL byte in an argument, say).
    fs.closeSync(fd);
    appendNote(request.logFile, `cannot start ${JSON.stringify(command)}: ${(err as Error).message}`);
    return Promise.resolve({ exit_code: 126, timed_out: false });
  }
  fs.closeSync(fd); // the child holds its own copies
  return new Promise((resolve) => {
    let timedOut = false;
    let interrupted = false;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      interrupted = true;
      if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.signal?.aborted) onAbort();
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) signalGroup(child.pid, "SIGTERM");
      graceTimer = setTimeout(() => {
        if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
      }, request.killGraceMs);
    }, request.timeoutMs);
    const settle = (result: StepProcessResult, note: string | null) => {
      if (settled) return;
      settled = true;
      request.signal?.removeEventListener("abort", onAbort);
      clearTimeout(timer);
      clearTimeout(graceTimer);
      if (note) appendNote(request.logFile, note);
      resolve(result);
    };
    child.on("error", (err: NodeJS.ErrnoException) => {
      // Could not start (missing program, not executable, cwd gone): the shell's 127/126 convention.
      settle({ exit_code: err.code === "ENOENT" ? 127 : 126, timed_out: false }, `cannot start ${JSON.stringify(command)}: ${err.message}`);
    });
    child.on("exit", (code, signal) => {
      const pid = child.pid!;
      // The step ends with its leader: whatever it left running in its group is killed before the log is
      // hashed, so nothing can write to the log afterwards.
      void killGroupAndWait(pid).then(() => {
        if (interrupted) settle({ exit_code: null, timed_out: false, interrupted: true }, "interrupted: process group killed");
        else if (timedOut) settle({ exit_code: null, timed_out: true }, `timed out after ${Math.round(request.timeoutMs / 1000)}s; process group ${pid} killed`);
        else if (signal) settle({ exit_code: null, timed_out: false }, `ended by signal ${signal}`);
        else settle({ exit_code: code, timed_out: false }, null);
      });
    });
  });
}
