// Committing anchors on refs/aop/anchors with git plumbing only (hash-object, mktree, commit-tree,
// update-ref): the user's branch, index and working tree are never touched. The ref's tree holds the
// newest checkpoint of each feature as `<feature_id>.note`; its history holds every one.
import { spawnSync } from "node:child_process";
import { AopError } from "../../core/errors.js";

export const ANCHORS_REF = "refs/aop/anchors";
const CAS_ATTEMPTS = 5;

export interface GitAnchorCommit {
  ref: string;
  commit: string;
  /** Whether the commit carries a signature (git signs it when commit.gpgSign is set). */
  signed: boolean;
}

interface GitResult {
  status: number;
  stdout: string;
  stderr: string;
}

function git(root: string, args: string[], input?: string): GitResult {
  const r = spawnSync("git", args, { cwd: root, input: input ?? "", encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error) {
    const missing = (r.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new AopError("anchor_git_failed", missing ? "git is not installed (or not on PATH)" : `git could not be run: ${r.error.message}`);
  }
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function must(root: string, args: string[], input?: string): string {
  const r = git(root, args, input);
  if (r.status !== 0) {
    throw new AopError("anchor_git_failed", `git ${args[0]} failed: ${r.stderr.trim().split("\n").slice(-3).join(" ") || `exit ${r.status}`}`, {
      details: { git_args: args.filter((a) => !a.includes("\n")) },
      hint: "the anchor is already in anchors.jsonl; fix git (identity, signing) and run `aop evidence anchor --git` again",
    });
  }
  return r.stdout;
}

function isSigned(root: string, commit: string): boolean {
  return /\ngpgsig(-sha256)? /.test(must(root, ["cat-file", "commit", commit]));
}

function currentTip(root: string): string | null {
  const r = git(root, ["rev-parse", "-q", "--verify", `${ANCHORS_REF}^{commit}`]);
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The tip's tree entries (`git ls-tree -z`), without `name`; and whether `name` already holds `blob`. */
function tipEntries(root: string, tip: string | null, name: string, blob: string): { kept: string[]; current: boolean } {
  const entries = tip === null ? [] : must(root, ["ls-tree", "-z", tip]).split("\0").filter((e) => e !== "");
  const nameOf = (e: string) => e.slice(e.indexOf("\t") + 1);
  const mine = entries.find((e) => nameOf(e) === name);
  return { kept: entries.filter((e) => nameOf(e) !== name), current: mine !== undefined && mine.split(/[ \t]/)[2] === blob };
}

export function commitAnchorToGit(root: string, featureId: string, note: string, message: string): GitAnchorCommit {
  if (git(root, ["rev-parse", "--git-dir"]).status !== 0) {
    throw new AopError("anchor_git_failed", `${root} is not inside a git repository`, { hint: "run `git init` first, or anchor without --git" });
  }
  const blob = must(root, ["hash-object", "-w", "--stdin"], note).trim();
  const sign = git(root, ["config", "--bool", "--get", "commit.gpgSign"]).stdout.trim() === "true";
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const tip = currentTip(root);
    const { kept, current } = tipEntries(root, tip, `${featureId}.note`, blob);
    if (current) return { ref: ANCHORS_REF, commit: tip!, signed: isSigned(root, tip!) };
    const input = [...kept, `100644 blob ${blob}\t${featureId}.note`].map((e) => e + "\0").join("");
    const tree = must(root, ["mktree", "-z"], input).trim();
    const commit = must(root, ["commit-tree", tree, ...(tip ? ["-p", tip] : []), ...(sign ? ["-S"] : []), "-m", message]).trim();
    // The expected old value makes this a compare-and-swap: a concurrent anchor makes us rebuild on top of it.
    if (git(root, ["update-ref", "-m", "aop evidence anchor", ANCHORS_REF, commit, tip ?? ""]).status === 0) return { ref: ANCHORS_REF, commit, signed: isSigned(root, commit) };
  }
  throw new AopError("anchor_git_failed", `${ANCHORS_REF} kept moving while it was updated (${CAS_ATTEMPTS} attempts)`, { hint: "run `aop evidence anchor --git` again" });
}
