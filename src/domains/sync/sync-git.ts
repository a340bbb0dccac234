// Running git for sync, the way the anchor ref does (domains/attest/git-anchor-ref.ts): spawn git with
// the input on stdin, never a shell. The user's index is irrelevant to every command used here (no
// GIT_INDEX_FILE is passed on), prompts are off (a remote asking for a password fails instead of
// hanging), and messages are in English so the push porcelain can be read.
import { spawn, spawnSync } from "node:child_process";
import { AopError, type ErrorCode } from "../../core/errors.js";

export interface GitResult {
  status: number;
  stdout: string;
  stderr: string;
}

const MAX_OUTPUT = 256 * 1024 * 1024;

export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", LANGUAGE: "C", ...extra };
  delete env.GIT_INDEX_FILE;
  return env;
}

function gitMissing(error: Error): AopError {
  const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
  return new AopError("sync_git_missing", missing ? "git is not installed (or not on PATH)" : `git could not be run: ${error.message}`, {
    hint: "install git (https://git-scm.com) and run the command again",
  });
}

export function git(cwd: string, args: string[], input: string | Buffer = "", env: Record<string, string> = {}): GitResult {
  const r = spawnSync("git", args, { cwd, input, encoding: "utf8", env: gitEnv(env), maxBuffer: MAX_OUTPUT });
  if (r.error && (r.error as NodeJS.ErrnoException).code !== "ENOBUFS") throw gitMissing(r.error);
  if (r.error) throw new AopError("sync_git_failed", `git ${args[0]} answered more than ${MAX_OUTPUT} bytes`);
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The same, for commands that talk to a remote (push, fetch, ls-remote): the event loop stays free. */
export function gitAsync(cwd: string, args: string[], input = ""): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, env: gitEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout.length < MAX_OUTPUT ? (stdout += d) : undefined));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr.length < MAX_OUTPUT ? (stderr += d) : undefined));
    child.on("error", (err) => reject(gitMissing(err)));
    child.on("close", (code) => resolve({ status: code ?? -1, stdout, stderr }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

export const lastLines = (text: string, n = 3) => text.trim().split("\n").slice(-n).join(" ");

export function gitFailure(args: string[], r: GitResult, code: ErrorCode = "sync_git_failed", hint?: string): AopError {
  return new AopError(code, `git ${args[0]} failed: ${lastLines(r.stderr) || `exit ${r.status}`}`, {
    details: { git_args: args.filter((a) => !a.includes("\n")).slice(0, 8) },
    ...(hint ? { hint } : {}),
  });
}

export function must(cwd: string, args: string[], input: string | Buffer = "", env: Record<string, string> = {}): string {
  const r = git(cwd, args, input, env);
  if (r.status !== 0) throw gitFailure(args, r);
  return r.stdout;
}

/** The repository's git dir, or sync_not_a_git_repository. */
export function requireRepository(root: string): string {
  const r = git(root, ["rev-parse", "--absolute-git-dir"]);
  if (r.status !== 0) {
    throw new AopError("sync_not_a_git_repository", `${root} is not inside a git repository: sync keeps records as git objects`, {
      hint: "run `git init` and `git remote add origin URL` first (or run aop in the repository's work tree)",
    });
  }
  return r.stdout.trim();
}

const REMOTE_NAME = /^(?!\.)(?!.*\.\.)[A-Za-z0-9._-]{1,100}$/;

/** The names of the repository's remotes (`git remote`). */
export function remoteNames(root: string): string[] {
  return git(root, ["remote"]).stdout.trim().split("\n").filter(Boolean);
}

/** A name that can be a remote's (it becomes part of a ref name and a folder name), or sync_unknown_remote. */
export function checkRemoteName(remote: string): string {
  if (!REMOTE_NAME.test(remote) || remote.endsWith(".lock")) {
    throw new AopError("sync_unknown_remote", `'${remote.slice(0, 80)}' is not a remote name (letters, digits, '.', '_', '-')`, {
      hint: "name a remote from `git remote -v`, or add one: `git remote add origin URL`",
    });
  }
  return remote;
}

/** A configured remote's name, or sync_unknown_remote; `known`: the repository's remotes, when already listed. */
export function requireRemote(root: string, remote: string, known?: string[]): string {
  checkRemoteName(remote);
  if (known ? !known.includes(remote) : git(root, ["remote", "get-url", remote]).status !== 0) {
    known ??= remoteNames(root);
    throw new AopError("sync_unknown_remote", `this repository has no remote '${remote}'${known.length > 0 ? ` (it has: ${known.join(", ")})` : " (it has none)"}`, {
      details: { remote, remotes: known },
      hint: known.length > 0 ? `run \`aop sync push ${known[0]}\`, or add it: \`git remote add ${remote} URL\`` : `add one: \`git remote add ${remote} URL\``,
    });
  }
  return remote;
}

/** requireRepository and the object format (sha1, or sha256 for repositories made with
 * --object-format=sha256) in one git run; a git too old to name its format is sha1. */
export function requireRepositoryWithFormat(root: string): { gitDir: string; format: "sha1" | "sha256" } {
  const r = git(root, ["rev-parse", "--absolute-git-dir", "--show-object-format"]);
  if (r.status !== 0) return { gitDir: requireRepository(root), format: "sha1" };
  const [gitDir, format] = r.stdout.trim().split("\n");
  return { gitDir: gitDir!, format: format === "sha256" ? "sha256" : "sha1" };
}

/** The commit a ref names and that commit's tree, or null when the ref does not exist. */
export function refCommitTree(root: string, ref: string): { commit: string; tree: string } | null {
  const r = git(root, ["for-each-ref", "--format=%(refname) %(objecttype) %(objectname) %(tree)", ref]);
  const line = r.status === 0 ? r.stdout.split("\n").find((l) => l.startsWith(`${ref} `)) : undefined;
  const [, type, commit, tree] = line?.split(" ") ?? [];
  if (type === "commit" && commit && tree) return { commit, tree };
  // Not a plain commit ref (or for-each-ref failed): peel it the long way.
  const peeled = refCommit(root, ref);
  return peeled === null ? null : { commit: peeled, tree: must(root, ["rev-parse", `${peeled}^{tree}`]).trim() };
}

/** The commit a ref names, or null when it does not exist. */
export function refCommit(root: string, ref: string): string | null {
  const r = git(root, ["rev-parse", "-q", "--verify", `${ref}^{commit}`]);
  return r.status === 0 ? r.stdout.trim() : null;
}
