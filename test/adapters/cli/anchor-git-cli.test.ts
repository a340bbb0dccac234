// `aop evidence anchor --git` against real git: the checkpoint lands on refs/aop/anchors through plumbing
// only (branch, index and working tree untouched), git signs the commit when commit.gpgSign is set (SSH
// signing, checked by `git verify-commit`), and concurrent anchors from several processes all land.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { signedWorkspace, type SignedWorkspace } from "../../helpers/attest.js";
import { runCli, runCliAsync } from "../../helpers/cli.js";
import { slowGit } from "../../helpers/slow-git.js";
import { tempDir } from "../../helpers/tmp.js";

const GIT_ENV = { GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

function git(root: string, args: string[]) {
  const r = spawnSync("git", args, { cwd: root, encoding: "utf8", env: { ...process.env, ...GIT_ENV } });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** A signing workspace that is a real git repository with one commit on main and a staged change. */
function repoWorkspace(features: string[] = ["feat_a"], policy?: Record<string, boolean>): SignedWorkspace & { anchor(args: string[]): ReturnType<SignedWorkspace["json"]> } {
  const ws = signedWorkspace(policy ? { policy } : {});
  fs.rmSync(ws.abs(".git"), { recursive: true });
  git(ws.root, ["init", "-q", "-b", "main"]);
  fs.writeFileSync(ws.abs("README.md"), "hello\n");
  git(ws.root, ["add", "README.md"]);
  git(ws.root, ["commit", "-q", "-m", "first"]);
  fs.writeFileSync(ws.abs("README.md"), "hello, staged\n");
  git(ws.root, ["add", "README.md"]);
  fs.writeFileSync(ws.abs("work.txt"), "untracked work in progress\n");
  for (const f of features.slice(1)) ws.cli(["feature", "init", f]);
  Object.assign(ws.env, GIT_ENV);
  return Object.assign(ws, { anchor: (args: string[]) => ws.json(["evidence", "anchor", ...args, "--git"]) });
}

describe("anchors on refs/aop/anchors", () => {
  it("commits the note on the dedicated ref and leaves branch, index and working tree alone", () => {
    const ws = repoWorkspace();
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    const head = git(ws.root, ["rev-parse", "HEAD"]);
    const status = git(ws.root, ["status", "--porcelain"]);
    const index = fs.readFileSync(ws.abs(".git/index"));
    const r = ws.anchor(["--feature-id", "feat_a"]);
    expect(r.code, r.stderr).toBe(0);
    const result = r.json as { note: string; git: { ref: string; commit: string; signed: boolean } };
    expect(result.git).toMatchObject({ ref: "refs/aop/anchors", signed: false });
    expect(git(ws.root, ["rev-parse", "refs/aop/anchors"]).trim()).toBe(result.git.commit);
    expect(git(ws.root, ["show", "refs/aop/anchors:feat_a.note"])).toBe(result.note);
    expect(git(ws.root, ["rev-parse", "HEAD"])).toBe(head);
    expect(git(ws.root, ["symbolic-ref", "HEAD"]).trim()).toBe("refs/heads/main");
    expect(git(ws.root, ["status", "--porcelain"])).toBe(status);
    expect(fs.readFileSync(ws.abs(".git/index")).equals(index)).toBe(true);
    expect(fs.readFileSync(ws.abs("work.txt"), "utf8")).toBe("untracked work in progress\n");
    // Unchanged chain: no new commit.
    expect((ws.anchor(["--feature-id", "feat_a"]).json as { git: { commit: string } }).git.commit).toBe(result.git.commit);
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    const second = ws.anchor(["--feature-id", "feat_a"]).json as { git: { commit: string } };
    expect(git(ws.root, ["rev-list", "--count", "refs/aop/anchors"]).trim()).toBe("2");
    expect(git(ws.root, ["rev-parse", `${second.git.commit}^`]).trim()).toBe(result.git.commit);
  });

  it("the copy on the ref catches a rewrite even after anchors.jsonl is gone", () => {
    const ws = repoWorkspace();
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    ws.anchor(["--feature-id", "feat_a"]);
    const evidence = ws.abs(".aop/features/feat_a/evidence");
    const lines = fs.readFileSync(path.join(evidence, "chain.jsonl"), "utf8").split("\n");
    const first = JSON.parse(lines[0]!);
    fs.writeFileSync(path.join(evidence, "chain.jsonl"), lines[0] + "\n");
    fs.writeFileSync(path.join(evidence, "manifest.integrity.json"), JSON.stringify({ entry_count: 1, head_hash: first.chain_hash, last_verified_at: null, last_verified_result: null }));
    fs.copyFileSync(ws.abs(first.artifact_rel_path), path.join(evidence, "latest-fast.json"));
    fs.rmSync(path.join(evidence, "anchors.jsonl"));
    const kept = path.join(tempDir(), "a.note");
    fs.writeFileSync(kept, git(ws.root, ["show", "refs/aop/anchors:feat_a.note"]));
    const r = ws.json<{ ok: boolean; error: { code: string; details: { valid: boolean; failure_code: string } } }>(["evidence", "verify", "--feature-id", "feat_a", "--anchor", kept]);
    expect(r.json).toMatchObject({ ok: false, error: { code: "evidence_chain_anchor_mismatch", details: { valid: false, failure_code: "evidence_chain_anchor_mismatch" } } });
  });

  it("git signs the commit when commit.gpgSign is set (SSH signing), and git verifies it", () => {
    const ws = repoWorkspace();
    const keyFile = path.join(tempDir(), "id_ed25519");
    expect(spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "ada", "-f", keyFile]).status).toBe(0);
    const allowed = path.join(tempDir(), "allowed_signers");
    fs.writeFileSync(allowed, `ada@example.com ${fs.readFileSync(`${keyFile}.pub`, "utf8")}`);
    for (const [k, v] of [["gpg.format", "ssh"], ["user.signingkey", keyFile], ["commit.gpgsign", "true"], ["gpg.ssh.allowedSignersFile", allowed]]) git(ws.root, ["config", k!, v!]);
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    const r = ws.anchor(["--feature-id", "feat_a"]);
    expect(r.code, r.stderr).toBe(0);
    expect((r.json as { git: { signed: boolean } }).git.signed).toBe(true);
    const verified = spawnSync("git", ["verify-commit", "refs/aop/anchors"], { cwd: ws.root, encoding: "utf8", env: { ...process.env, ...GIT_ENV } });
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stderr).toMatch(/Good "git" signature for ada@example.com/);
  });

  it("outside a git repository --git fails with its own code, after the anchor was recorded", () => {
    const ws = signedWorkspace();
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    const r = ws.cli(["evidence", "anchor", "--feature-id", "feat_a", "--git"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error anchor_git_failed: .* is not inside a git repository/);
    expect(fs.existsSync(ws.abs(".aop/features/feat_a/evidence/anchors.jsonl"))).toBe(true);
  });

  it("four processes anchoring four features at once: every note lands on the ref", async () => {
    const features = ["feat_a", "feat_b", "feat_c", "feat_d"];
    const ws = repoWorkspace(features);
    for (const f of features) ws.cli(["gates", "run", "--feature-id", f, "--mode", "fast"]);
    const results = await Promise.all(features.map((f) => runCliAsync(["--root", ws.root, "evidence", "anchor", "--feature-id", f, "--git"], { env: ws.env })));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(git(ws.root, ["ls-tree", "--name-only", "refs/aop/anchors"]).trim().split("\n")).toEqual(features.map((f) => `${f}.note`));
    expect(git(ws.root, ["rev-list", "--count", "refs/aop/anchors"]).trim()).toBe("4");
  });

  it.each([
    ["a blob", (root: string) => git(root, ["update-ref", "refs/aop/anchors", git(root, ["hash-object", "-w", "--stdin"]).trim()]), /it names a blob \([0-9a-f]{40}\), not a commit/, /git update-ref -d refs\/aop\/anchors [0-9a-f]{40}/],
    ["an object the repository does not have", (root: string) => fs.writeFileSync(path.join(root, ".git/refs/aop/anchors"), "1234567890123456789012345678901234567890\n"), /it names 1234567890123456789012345678901234567890, an object this repository does not have/, /git update-ref -d refs\/aop\/anchors 1234567890123456789012345678901234567890/],
    ["no object id at all", (root: string) => fs.writeFileSync(path.join(root, ".git/refs/aop/anchors"), "garbage\n"), /git cannot read it \(.*reference broken\)/, /rm "\$\(git rev-parse --git-path refs\/aop\/anchors\)"/],
  ])("a ref naming %s is reported as broken once, with its repair; anchoring works after it", (_name, breakRef, reason, repair) => {
    const ws = repoWorkspace();
    ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    fs.mkdirSync(ws.abs(".git/refs/aop"), { recursive: true });
    breakRef(ws.root);
    const slow = slowGit({ maxDelayMs: 0, log: true });
    const r = runCli(["--root", ws.root, "evidence", "anchor", "--feature-id", "feat_a", "--git"], { env: { ...ws.env, ...slow.env } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error anchor_git_failed: refs\/aop\/anchors is broken: /);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).not.toMatch(/kept (moving|changing)/);
    expect(r.stderr.split("\n").find((l) => l.startsWith("hint: "))).toMatch(repair);
    // Once: at most the one update-ref that found the ref unreadable, no retries.
    expect(slow.calls().filter((c) => c === "update-ref").length).toBeLessThanOrEqual(1);
    // The repair the hint names, then the anchor lands.
    const command = /`((?:git update-ref -d|rm) [^`]+)`/.exec(r.stderr)![1]!;
    expect(spawnSync("sh", ["-c", command], { cwd: ws.root, env: { ...process.env, ...GIT_ENV } }).status).toBe(0);
    const again = ws.anchor(["--feature-id", "feat_a"]);
    expect(again.code, again.stderr).toBe(0);
    expect(git(ws.root, ["show", "refs/aop/anchors:feat_a.note"])).toBe((again.json as { note: string }).note);
  });

  it("with anchor_after_gate and anchor_git, a gate run on a broken ref fails with that error, not an endless retry", () => {
    const ws = repoWorkspace(["feat_a"], { anchor_after_gate: true, anchor_git: true });
    fs.mkdirSync(ws.abs(".git/refs/aop"), { recursive: true });
    fs.writeFileSync(ws.abs(".git/refs/aop/anchors"), `${git(ws.root, ["hash-object", "-w", "--stdin"]).trim()}\n`);
    const r = ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error anchor_git_failed: refs\/aop\/anchors is broken: it names a blob/);
    git(ws.root, ["update-ref", "-d", "refs/aop/anchors"]);
    const ok = ws.cli(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(git(ws.root, ["ls-tree", "--name-only", "refs/aop/anchors"]).trim()).toBe("feat_a.note");
  });
});
