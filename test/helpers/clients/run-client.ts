// Runs a real agent client (Codex, Gemini CLI, opencode) offline: a throw-away HOME, a bounded run, and
// the whole output kept for assertions. Each client's test builds its own config around it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "../cli.js";
import { tempDir, tempWorkspace, writeFile } from "../tmp.js";

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

/** A state file a stop reminder fires on: complete, and an hour older than the session. */
const STALE_STATE = "# Current State\n\n## Objective\nShip the refund flow\n\n## Current Step\nRefund handler\n\n## Next Action\nWrite the refund handler test\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n";

/** A workspace wired by `aop integrate <client> --write`, with a stale state file and the block-mode stop reminder. */
export function wiredProject(client: string): string {
  const project = tempWorkspace();
  const r = runCli(["integrate", client, "--write"], { cwd: project });
  if (r.code !== 0) throw new Error(`aop integrate ${client} --write failed: ${r.stderr}`);
  writeFile(project, "memory/CURRENT_STATE.md", STALE_STATE);
  // aop's own key, in aop's own file (the upstream orchestrator's policy.yaml schema refuses it).
  writeFile(project, "agentic/orchestrator/aop.yaml", "hooks:\n  claude:\n    stop_reminder: block\n");
  const old = new Date(Date.now() - 3_600_000);
  fs.utimesSync(path.join(project, "memory/CURRENT_STATE.md"), old, old);
  return project;
}

/** The text a scripted call carries for the guard hook (guardHook) to refuse it. */
export const GUARDED = "blocked-by-guard";

/**
 * A second hook, not aop's, that refuses every call whose payload holds GUARDED: it exits 2 with its
 * reason on stderr, which Codex's PreToolUse and Gemini CLI's BeforeTool both read as "block".
 */
export function guardHook(project: string): string {
  const file = writeFile(project, "guard.sh", `#!/bin/sh\ncase "$(cat)" in *${GUARDED}*) echo "the guard refuses this call" >&2; exit 2;; esac\nexit 0\n`);
  fs.chmodSync(file, 0o755);
  return file;
}
