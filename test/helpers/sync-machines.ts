// Machines for `aop sync` tests: a bare repository on local disk as the remote and clones of it, each an
// initialised aop workspace driven through the CLI. Real git, no identity or config from the host.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { runCli, runCliAsync, type CliResult } from "./cli.js";
import { tempDir } from "./tmp.js";

export const GIT_ENV = {
  GIT_AUTHOR_NAME: "Ada",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

export function git(cwd: string, args: string[], input?: string): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", input: input ?? "", env: { ...process.env, ...GIT_ENV }, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

export interface Machine {
  root: string;
  aop(args: string[]): CliResult;
  aopAsync(args: string[]): Promise<CliResult>;
  json<T = Record<string, unknown>>(args: string[]): { code: number; json: T; stderr: string };
  workspaceId(): string;
}

export function machine(root: string): Machine {
  const env = { ...GIT_ENV, AOP_RUN_ID: undefined };
  const m: Machine = {
    root,
    aop: (args) => runCli(["--root", root, ...args], { cwd: root, env, timeoutMs: 60_000 }),
    aopAsync: (args) => runCliAsync(["--root", root, ...args], { cwd: root, env }),
    json: <T>(args: string[]) => {
      const r = m.aop([...args, "--json"]);
      try {
        return { code: r.code, json: JSON.parse(r.stdout) as T, stderr: r.stderr };
      } catch {
        throw new Error(`not JSON (exit ${r.code}):\n${r.stdout}\n--- stderr ---\n${r.stderr}`);
      }
    },
    workspaceId: () => (JSON.parse(fs.readFileSync(path.join(root, ".aop/workspace.json"), "utf8")) as { workspace_id: string }).workspace_id,
  };
  return m;
}

/** A bare remote with one commit on main, and a folder for the clones. */
export function bareRemote(): { dir: string; remote: string } {
  const dir = tempDir("aop-sync-");
  const remote = path.join(dir, "remote.git");
  git(dir, ["init", "-q", "--bare", "-b", "main", remote]);
  const seed = path.join(dir, "seed");
  git(dir, ["init", "-q", "-b", "main", seed]);
  fs.writeFileSync(path.join(seed, "README.md"), "project\n");
  git(seed, ["add", "README.md"]);
  git(seed, ["commit", "-q", "-m", "first"]);
  git(seed, ["push", "-q", remote, "main"]);
  return { dir, remote };
}

/** A clone of `remote` in `dir/name`, initialised as an aop workspace (`aop init`). */
export function cloneMachine(dir: string, remote: string, name: string): Machine {
  const root = path.join(dir, name);
  git(dir, ["clone", "-q", remote, root]);
  const m = machine(root);
  const init = m.aop(["init"]);
  if (init.code !== 0) throw new Error(`aop init: ${init.stderr}`);
  return m;
}

/** Every file under `dir` (relative path → bytes), skipping `skip` folders. */
export function filesUnder(dir: string, skip: string[] = []): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d)) {
      const abs = path.join(d, name);
      const rel = path.relative(dir, abs);
      if (skip.includes(rel)) continue;
      const st = fs.lstatSync(abs);
      if (st.isDirectory()) walk(abs);
      else if (st.isFile()) out.set(rel, fs.readFileSync(abs));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}
