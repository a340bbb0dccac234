// Committing anchors on refs/aop/anchors with git plumbing only (hash-object, mktree, commit-tree,
// update-ref): the user's branch, index and working tree are never touched. The ref's tree holds the
// newest checkpoint of each feature as `<feature_id>.note`; its history holds every one, and never goes
// back to an older note of a feature (anchor-ref-plan.ts).
import { AopError } from "../../core/errors.js";
import { backoffMs, MAX_HELD_NOTE_BYTES, mktreeInput, parseTreeListing, planNote } from "./anchor-ref-plan.js";

const ANCHORS_REF = "refs/aop/anchors";
// Each lost compare-and-swap means another anchor landed, so this bounds contention, not progress.
const CAS_ATTEMPTS = 40;

export interface GitAnchorCommit {
  ref: string;
  /** The ref's commit holding this feature's note: ours, or a newer one a concurrent anchor committed. */
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
  // Loaded when git runs: this module is part of the attest domain every evidence verify loads, and
  // node:child_process brings in net, dgram and every stream module.
  const r = process.getBuiltinModule("node:child_process").spawnSync("git", args, { cwd: root, input: input ?? "", encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error) {
    const missing = (r.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new AopError("anchor_git_failed", missing ? "git is not installed (or not on PATH)" : `git could not be run: ${r.error.message}`);
  }
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const lastLines = (text: string) => text.trim().split("\n").slice(-3).join(" ");

function must(root: string, args: string[], input?: string): string {
  const r = git(root, args, input);
  if (r.status !== 0) {
    throw new AopError("anchor_git_failed", `git ${args[0]} failed: ${lastLines(r.stderr) || `exit ${r.status}`}`, {
      details: { git_args: args.filter((a) => !a.includes("\n")) },
      hint: "the anchor is already in anchors.jsonl; fix git (identity, signing) and run `aop evidence anchor --git` again",
    });
  }
  return r.stdout;
}

function isSigned(root: string, commit: string): boolean {
  return /\ngpgsig(-sha256)? /.test(must(root, ["cat-file", "commit", commit]));
}

type RefState = { status: "absent" } | { status: "commit"; commit: string } | { status: "broken"; reason: string; object: string | null };

/** What the ref names: nothing, a commit, or something else (then it is broken: no anchor can build on it). */
function readRef(root: string): RefState {
  const r = git(root, ["rev-parse", "-q", "--verify", ANCHORS_REF]);
  if (r.status !== 0) return { status: "absent" }; // or unreadable: update-ref tells (see commitAnchorToGit)
  const object = r.stdout.trim();
  const type = git(root, ["cat-file", "-t", object]);
  if (type.status !== 0) return { status: "broken", reason: `it names ${object}, an object this repository does not have`, object };
  const kind = type.stdout.trim();
  return kind === "commit" ? { status: "commit", commit: object } : { status: "broken", reason: `it names a ${kind} (${object}), not a commit`, object };
}

function brokenRef(reason: string, object: string | null): AopError {
  const repair =
    object === null
      ? `remove the ref's file (\`rm "$(git rev-parse --git-path ${ANCHORS_REF})"\`; git cannot delete a ref it cannot read)`
      : `look at it (\`git cat-file -p ${object}\`), keep a copy if it matters, then delete the ref: \`git update-ref -d ${ANCHORS_REF} ${object}\``;
  return new AopError("anchor_git_failed", `${ANCHORS_REF} is broken: ${reason}; the anchor was not committed there`, {
    details: { ref: ANCHORS_REF, object },
    hint: `${repair}; then \`aop evidence anchor --all --git\` commits each feature's newest anchor again (they are all in anchors.jsonl)`,
  });
}

/** The feature's note entry on the tip and, when it is another blob of a sane size, its text. */
function heldNote(root: string, entry: { object: string; type: string; size: number | null } | undefined, mine: string): { object: string; note: string | null } | null {
  if (entry === undefined) return null;
  if (entry.object === mine || entry.type !== "blob" || entry.size === null || entry.size > MAX_HELD_NOTE_BYTES) return { object: entry.object, note: null };
  return { object: entry.object, note: must(root, ["cat-file", "blob", entry.object]) };
}

export async function commitAnchorToGit(root: string, featureId: string, anchor: { note: string; treeSize: number }, message: string): Promise<GitAnchorCommit> {
  if (git(root, ["rev-parse", "--git-dir"]).status !== 0) {
    throw new AopError("anchor_git_failed", `${root} is not inside a git repository`, { hint: "run `git init` first, or anchor without --git" });
  }
  const blob = must(root, ["hash-object", "-w", "--stdin"], anchor.note).trim();
  const sign = git(root, ["config", "--bool", "--get", "commit.gpgSign"]).stdout.trim() === "true";
  const name = `${featureId}.note`;
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    if (attempt > 0) await process.getBuiltinModule("node:timers/promises").setTimeout(backoffMs(attempt, Math.random()));
    const ref = readRef(root);
    if (ref.status === "broken") throw brokenRef(ref.reason, ref.object);
    const tip = ref.status === "commit" ? ref.commit : null;
    const entries = tip === null ? [] : parseTreeListing(must(root, ["ls-tree", "-z", "-l", tip]));
    const plan = planNote(heldNote(root, entries.find((e) => e.name === name), blob), { object: blob, treeSize: anchor.treeSize });
    // The ref already holds this note, or a newer one of this feature: committing would move it back.
    if (plan !== "write") return { ref: ANCHORS_REF, commit: tip!, signed: isSigned(root, tip!) };
    const kept = entries.filter((e) => e.name !== name);
    const tree = must(root, ["mktree", "-z"], mktreeInput([...kept, { mode: "100644", type: "blob", object: blob, size: null, name }])).trim();
    const commit = must(root, ["commit-tree", tree, ...(tip ? ["-p", tip] : []), ...(sign ? ["-S"] : []), "-m", message]).trim();
    // The expected old value makes this a compare-and-swap: when another anchor moved the ref, read it again.
    const update = git(root, ["update-ref", "-m", "aop evidence anchor", ANCHORS_REF, commit, tip ?? ""]);
    if (update.status === 0) return { ref: ANCHORS_REF, commit, signed: isSigned(root, commit) };
    // "Absent" but not creatable, and not for a lock another writer holds: the ref exists and git cannot read it.
    if (tip === null && !/File exists/.test(update.stderr) && readRef(root).status === "absent") {
      throw brokenRef(`git cannot read it (${lastLines(update.stderr)})`, null);
    }
  }
  throw new AopError("anchor_git_failed", `${ANCHORS_REF} kept changing under concurrent anchors (${CAS_ATTEMPTS} attempts)`, { hint: "run `aop evidence anchor --git` again" });
}
