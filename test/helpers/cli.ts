// Runs the built `aop` CLI as a separate process, the way users and CI do.
import { spawn, spawnSync } from "node:child_process";
import { CLI_BIN } from "./paths.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** The bin to run (default bin/aop.js), e.g. CHECKPOINT_BIN or CONTINUITY_DOCTOR_BIN. */
  bin?: string;
}

function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.AOP_ROOT;
  delete env.AOP_RUN_ID;
  delete env.AOP_SESSION_ID;
  delete env.AOP_ACTOR;
  delete env.FORCE_COLOR;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: string[], options: CliOptions = {}): CliResult {
  const result = spawnSync(process.execPath, [options.bin ?? CLI_BIN, ...args], {
    cwd: options.cwd,
    env: childEnv(options.env),
    input: options.input ?? "",
    encoding: "utf8",
    timeout: options.timeoutMs ?? 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function runCliAsync(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? CLI_BIN, ...args], { cwd: options.cwd, env: childEnv(options.env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** The subcommands a help text lists under "Commands:" (`help` included, as commander adds it). */
export function listedSubcommands(help: string): string[] {
  return (help.split("Commands:")[1] ?? "")
    .split("\n")
    .map((l) => /^ {2}([a-z][a-z-]*)/.exec(l)?.[1])
    .filter((c): c is string => c !== undefined);
}

export function runJson<T = unknown>(args: string[], options: CliOptions = {}): { code: number; json: T; stderr: string } {
  const r = runCli([...args, "--json"], options);
  let json: T;
  try {
    json = JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${r.code}):\n${r.stdout}\n--- stderr ---\n${r.stderr}`);
  }
  return { code: r.code, json, stderr: r.stderr };
}
