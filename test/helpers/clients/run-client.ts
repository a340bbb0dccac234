// Runs a real agent client (Codex, Gemini CLI, opencode) offline: a throw-away HOME, a bounded run, and
// the whole output kept for assertions. Each client's test builds its own config around it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../tmp.js";

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** An executable from this package's own node_modules/.bin (the clients are pinned devDependencies). */
export function localBin(name: string): string | null {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "node_modules", ".bin", name);
  return fs.existsSync(file) ? file : null;
}

/** A HOME with nothing of the machine's in it, and a TMPDIR inside it. */
export function offlineHome(): { home: string; env: NodeJS.ProcessEnv } {
  const home = tempDir("aop-client-home-");
  const tmp = path.join(home, "tmp");
  fs.mkdirSync(tmp);
  return { home, env: { PATH: process.env.PATH, HOME: home, USER: process.env.USER ?? "root", SHELL: "/bin/bash", LANG: "C.UTF-8", TMPDIR: tmp, NO_COLOR: "1", TERM: "dumb" } };
}

export function runClient(bin: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
