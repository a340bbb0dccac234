// Crash tests: run the built CLI with a crash point armed (AOP_CRASH_AT), list the points a call passes
// (AOP_CRASH_TRACE), and check what a crash may leave behind: files that parse, locks that do not block,
// chains that verify and timelines without gaps.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CLI_BIN } from "./paths.js";
import { acquireLock } from "../../src/store/lock.js";
import { processIsRunning } from "../../src/domains/gates/process-group.js";

export interface CrashRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runAop(args: string[], env: Record<string, string | undefined> = {}): Promise<CrashRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  for (const key of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR", "AOP_CRASH_AT", "AOP_CRASH_TRACE"]) delete childEnv[key];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The crash points a command passes, in order, as `point@n` specs for AOP_CRASH_AT. */
export async function tracePoints(args: string[], env: Record<string, string>, traceFile: string): Promise<string[]> {
  fs.rmSync(traceFile, { force: true });
  const r = await runAop(args, { ...env, AOP_CRASH_TRACE: traceFile });
  if (r.code !== 0) throw new Error(`traced run failed (${r.code}): ${r.stdout}${r.stderr}`);
  const seen = new Map<string, number>();
  const specs: string[] = [];
  for (const line of fs.readFileSync(traceFile, "utf8").split("\n")) {
    const point = line.split(" ")[0];
    if (!point) continue;
    const n = (seen.get(point) ?? 0) + 1;
    seen.set(point, n);
    specs.push(`${point}@${n}`);
  }
  return specs;
}

function walk(dir: string, out: string[] = []): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) walk(file, out);
    else out.push(file);
  }
  return out;
}

/** Files under `dir` that are torn or do not parse (temp files of crashed atomic writes are not data). */
export function brokenFiles(dir: string): string[] {
  const broken: string[] = [];
  for (const file of walk(dir)) {
    const name = path.basename(file);
    if (name.includes(".tmp-") || name.endsWith(".lock") || name.endsWith(".log")) continue;
    const text = fs.readFileSync(file, "utf8");
    try {
      if (name.endsWith(".jsonl")) {
        if (text !== "" && !text.endsWith("\n")) throw new Error("torn final line");
        for (const line of text.split("\n").filter((l) => l !== "")) JSON.parse(line);
      } else if (name.endsWith(".json")) JSON.parse(text);
      else if (name === "state.md" && !/^---\n[\s\S]*\n---\n/.test(text)) throw new Error("no front matter");
    } catch (err) {
      broken.push(`${path.relative(dir, file)}: ${(err as Error).message}`);
    }
  }
  return broken;
}

/** Lock files that would make a writer wait: a live holder, or a lock that cannot be taken within 1 s. */
export async function blockingLocks(dir: string): Promise<string[]> {
  const blocking: string[] = [];
  for (const file of walk(dir).filter((f) => f.endsWith(".lock"))) {
    try {
      const holder = JSON.parse(fs.readFileSync(file, "utf8")) as { pid?: number };
      if (typeof holder.pid === "number" && processIsRunning(holder.pid)) blocking.push(`${file}: held by live pid ${holder.pid}`);
    } catch {
      // unreadable holder: judged below by whether it can be taken
    }
    try {
      const release = await acquireLock(file, { timeoutMs: 1000, warn: () => undefined });
      release();
    } catch (err) {
      blocking.push(`${file}: ${(err as Error).message}`);
    }
  }
  return blocking;
}

export interface TimelineLine {
  sequence: number;
  operation_id: string | null;
  idempotency_status: string;
  error_code: string | null;
  result: string;
  latency_ms: number;
}

/** Every run's timeline entries; throws on a gap, a duplicate or a line that does not parse. */
export function timelines(root: string): Map<string, TimelineLine[]> {
  const dir = path.join(root, ".aop", "runtime", "replay");
  const out = new Map<string, TimelineLine[]>();
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".timeline.jsonl"))) {
    const lines = fs.readFileSync(path.join(dir, name), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as TimelineLine);
    lines.forEach((entry, i) => {
      if (entry.sequence !== i) throw new Error(`${name}: entry ${i} has sequence ${entry.sequence}`);
    });
    out.set(name, lines);
  }
  return out;
}
