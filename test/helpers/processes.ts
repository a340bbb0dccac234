// Spawning worker processes for multi-process and crash tests.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { WORKERS } from "./paths.js";

export interface WorkerResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startWorker(script: string, args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<WorkerResult> } {
  const child = spawn(process.execPath, [path.join(WORKERS, script), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<WorkerResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export async function runWorkers(script: string, argsPerWorker: string[][]): Promise<WorkerResult[]> {
  return Promise.all(argsPerWorker.map((args) => startWorker(script, args).done));
}

/** Resolves once the child has printed `marker` on stdout. */
export function waitForOutput(child: ChildProcess, marker: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`worker did not print '${marker}' within ${timeoutMs} ms`)), timeoutMs);
    child.stdout!.on("data", (d: Buffer) => {
      seen += d.toString();
      if (seen.includes(marker)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}
