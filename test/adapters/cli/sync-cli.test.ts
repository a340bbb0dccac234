// `aop sync` against real git: bare repositories on local disk (and one git daemon on 127.0.0.1) as the
// remote, clones of it as machines, records written by the CLI and the Claude Code hook.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TimelineWriter } from "../../../src/domains/replay/timeline-writer.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { claudePayload } from "../../helpers/claude-payloads.js";
import { runCli } from "../../helpers/cli.js";
import { writeLargeRun } from "../../helpers/large-runs.js";
import { bareRemote, cloneMachine, filesUnder, git, GIT_ENV, machine } from "../../helpers/sync-machines.js";
import { tempDir } from "../../helpers/tmp.js";

interface PushJson {
  status: string;
  sent_bytes: number | null;
  commit: string;
  parent: string | null;
  ref: string;
  workspace_id: string;
  new_objects: number;
  new_bytes: number;
  skipped: { path: string; reason: string }[];
}
interface PullJson {
  origins: { workspace_id: string; status: string; reason: string | null; folder: string; display_name: string | null }[];
}

/** What the user's repository looks like to git: HEAD, branch, status, index bytes, branches. */
function userState(root: string) {
  return {
    head: git(root, ["rev-parse", "HEAD"]),
    branch: git(root, ["symbolic-ref", "HEAD"]),
    status: git(root, ["status", "--porcelain", "--untracked-files=all"]).split("\n").filter((l) => !l.includes(".aop/")).join("\n"),
    index: fs.readFileSync(path.join(root, ".git/index")).toString("base64"),
    branches: git(root, ["for-each-ref", "refs/heads", "refs/tags"]),
  };
}

function entry(runId: string, i: number) {
  return { ts: new Date(Date.UTC(2026, 5, 1) + i * 1000).toISOString(), run_id: runId, session_id: runId, actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: `op-${i}`, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 };
}

describe("aop sync status in a repository with no remote", () => {
  it("shows every run as local only instead of refusing; a name the repository lacks is still refused where it has remotes", async () => {
    const root = path.join(tempDir("aop-sync-"), "solo");
    git(path.dirname(root), ["init", "-q", "-b", "main", root]);
    const m = machine(root);
    expect(m.aop(["init"]).code).toBe(0);
    await appendEntries(root, "run-solo", 0, 3);
    for (const [args, remote] of [[["sync", "status"], "origin"], [["sync", "status", "--offline"], "origin"], [["sync", "status", "upstream"], "upstream"]] as const) {
      const status = m.json<{ remote: string; remote_configured: boolean; remote_checked: boolean; pushed_commit: string | null; runs: { run_id: string; local_entries: number; pushed_entries: number }[] }>([...args]);
      expect(status.code, `${args.join(" ")}: ${status.stderr}`).toBe(0);
      expect(status.json).toMatchObject({ remote, remote_configured: false, remote_checked: false, pushed_commit: null });
      expect(status.json.runs).toContainEqual({ run_id: "run-solo", local_entries: 3, pushed_entries: 0 });
    }
    const human = m.aop(["sync", "status"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/this repository has no remote: every record here is local only \(add one: git remote add origin URL, then aop sync push\)/);
    expect(human.stdout).toMatch(/run-solo: 3 here, 0 pushed — 3 local only/);
    // A name that cannot be a remote's, and push and pull, which need a remote, are refused as before.
    expect(m.aop(["sync", "status", "../evil"]).stderr).toMatch(/^error sync_unknown_remote: '..\/evil' is not a remote name/);
    expect(m.aop(["sync", "push"]).stderr).toMatch(/^error sync_unknown_remote: this repository has no remote 'origin' \(it has none\)/);
    expect(m.aop(["sync", "pull"]).stderr).toMatch(/^error sync_unknown_remote: this repository has no remote 'origin' \(it has none\)/);
    git(root, ["remote", "add", "origin", path.join(path.dirname(root), "nowhere.git")]);
    expect(m.aop(["sync", "status", "upstream"]).stderr).toMatch(/^error sync_unknown_remote: this repository has no remote 'upstream' \(it has: origin\)/);
    expect(m.json<{ remote_configured: boolean }>(["sync", "status", "--offline"]).json.remote_configured).toBe(true);
  });
});

async function appendEntries(root: string, runId: string, from: number, n: number): Promise<void> {
  const writer = new TimelineWriter(new WorkspaceLayout(root), () => 1_000_000);
  for (let i = from; i < from + n; i++) await writer.append(entry(runId, i));
  writer.close();
}

function treePaths(cwd: string, ref: string): string[] {
  return git(cwd, ["ls-tree", "-r", "--name-only", ref]).trim().split("\n").filter(Boolean);
}

describe("aop sync push and pull", () => {
  it("round-trips every record byte for byte, leaves branches, index and work tree alone, and pushes nothing private", () => {
    const { dir, remote } = bareRemote();
    const a = cloneMachine(dir, remote, "a");
    const b = cloneMachine(dir, remote, "b");
    // Work in progress the sync must not touch: a staged change and an untracked file.
    fs.writeFileSync(path.join(a.root, "README.md"), "project, staged\n");
    git(a.root, ["add", "README.md"]);
    fs.writeFileSync(path.join(a.root, "notes.txt"), "untracked\n");
    for (const args of [["feature", "init", "feat_a"], ["--run-id", "run-1", "run", "start"], ["--run-id", "run-1", "gates", "run", "--feature-id", "feat_a", "--mode", "fast"], ["--run-id", "run-1", "call", "feature.list", "--args", "{}"], ["doctor"]]) {
      const r = a.aop(args);
      expect(r.code === 0 || args[0] === "doctor", `${args.join(" ")}: ${r.stderr}`).toBe(true);
    }
    const start = claudePayload("SubagentStart", a.root);
    for (const p of [claudePayload("SessionStart", a.root, { session_id: start.session_id }), start, claudePayload("PostToolUse-in-subagent", a.root, { session_id: start.session_id, agent_id: start.agent_id })]) {
      expect(runCli(["hook", "claude"], { cwd: a.root, input: JSON.stringify(p), env: GIT_ENV }).code).toBe(0);
    }
    fs.mkdirSync(path.join(a.root, "memory"), { recursive: true });
    fs.writeFileSync(path.join(a.root, "memory/CURRENT_STATE.md"), "# Objective\nShip sync\n");
    fs.writeFileSync(path.join(a.root, ".aop/runtime/handoff.json"), '{"next_action":"review"}\n');
    fs.mkdirSync(path.join(a.root, ".aop/runtime/doctor/history"), { recursive: true });
    fs.writeFileSync(path.join(a.root, ".aop/runtime/doctor/history/2026-01-01T00-00-00Z.json"), "{}");
    fs.writeFileSync(path.join(a.root, ".aop/runtime/hooks.log"), "raw hook line\n");
    const outside = path.join(tempDir(), "secret.txt");
    fs.writeFileSync(outside, "outside the workspace\n");
    fs.symlinkSync(outside, path.join(a.root, "memory/linked.md"));
    const before = userState(a.root);

    const push = a.json<PushJson>(["sync", "push", "--name", "ada@laptop"]);
    expect(push.code, push.stderr).toBe(0);
    const id = a.workspaceId();
    expect(push.json).toMatchObject({ status: "pushed", ref: `refs/aop/records/${id}`, parent: null, workspace_id: id });
    expect(push.json.skipped).toEqual([{ path: "memory/linked.md", reason: "a symbolic link (never followed)" }]);
    expect(userState(a.root)).toEqual(before);
    expect(git(dir, ["--git-dir", remote, "rev-parse", `refs/aop/records/${id}`]).trim()).toBe(push.json.commit);
    const pushed = treePaths(remote, push.json.commit);
    expect(pushed).toContain("handoff.json");
    expect(pushed).toContain("doctor/last_report.json");
    expect(pushed.some((p) => /^timelines\/claude-[^/]+\/seg-000000000000\.ext\.jsonl$/.test(p))).toBe(true);
    expect(pushed.filter((p) => /history|hooks\.log|linked|\.lock$|keys|export|spool|\.key$/.test(p))).toEqual([]);
    expect(JSON.parse(git(remote, ["cat-file", "blob", `${push.json.commit}:workspace.json`]))).toEqual({ version: 1, workspace_id: id, display_name: "ada@laptop", key_ids: [] });
    expect(git(remote, ["log", "-1", "--format=%an", push.json.commit]).trim()).toBe("ada@laptop");

    const beforeB = userState(b.root);
    const pull = b.json<PullJson>(["sync", "pull"]);
    expect(pull.code, JSON.stringify(pull.json)).toBe(0);
    expect(pull.json.origins).toEqual([expect.objectContaining({ workspace_id: id, status: "pulled", display_name: "ada@laptop", folder: `.aop/remote/origin/${id}` })]);
    expect(userState(b.root)).toEqual(beforeB);
    const folder = path.join(b.root, ".aop/remote/origin", id);
    const origin = JSON.parse(fs.readFileSync(path.join(folder, "origin.json"), "utf8")) as Record<string, unknown>;
    expect(origin).toMatchObject({ version: 1, remote: "origin", workspace_id: id, display_name: "ada@laptop", commit: push.json.commit });
    expect(origin.committed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const got = filesUnder(folder, ["origin.json"]);
    const want = new Map<string, Buffer>();
    for (const [sub, skip] of [[".aop/features", []], [".aop/runtime/operation-ledger", []], [".aop/runtime/replay", []], [".checkpoints", []], ["memory", []]] as const) {
      for (const [rel, bytes] of filesUnder(path.join(a.root, sub), [...skip])) {
        if (/\.lock$|\.hook-state\.json$|\.spool\//.test(rel) || rel === "retention.json") continue;
        want.set(path.join(sub, rel), bytes);
      }
    }
    want.set(".aop/runtime/doctor/last_report.json", fs.readFileSync(path.join(a.root, ".aop/runtime/doctor/last_report.json")));
    want.set(".aop/runtime/handoff.json", fs.readFileSync(path.join(a.root, ".aop/runtime/handoff.json")));
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [rel, bytes] of want) expect(got.get(rel)!.equals(bytes), rel).toBe(true);
    expect(fs.statSync(path.join(folder, ".aop/runtime/handoff.json")).mode & 0o222).toBe(0);
    // Existing readers work on the folder as on any workspace.
    const list = runCli(["--root", folder, "replay", "--list", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(list.stdout))).toContain("run-1");
    expect(runCli(["--root", folder, "evidence", "verify", "--feature-id", "feat_a"]).code).toBe(0);

    // Nothing new: a clear error, and a second pull leaves the folder as it is.
    const again = a.aop(["sync", "push"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error sync_nothing_to_push: nothing to push: origin already holds these records/);
    expect(b.json<PullJson>(["sync", "pull"]).json.origins[0]!.status).toBe("unchanged");
  });

  it("sends only the newest segment after 100 new entries (≤ 64 KiB), and status counts entries local and pushed", async () => {
    const { dir, remote } = bareRemote();
    const a = cloneMachine(dir, remote, "a");
    writeLargeRun(new WorkspaceLayout(a.root), "big", 10_000);
    const first = a.json<PushJson>(["sync", "push"]);
    expect(first.code, first.stderr).toBe(0);
    const segs = treePaths(remote, `${first.json.commit}:timelines/big`);
    expect(segs).toEqual(["seg-000000000000.jsonl", "seg-000000004096.jsonl", "seg-000000008192.jsonl"]);
    await appendEntries(a.root, "big", 0, 100);
    const status = a.json<{ runs: { run_id: string; local_entries: number; pushed_entries: number }[] }>(["sync", "status"]);
    expect(status.json.runs.find((r) => r.run_id === "big")).toEqual({ run_id: "big", local_entries: 10_100, pushed_entries: 10_000 });
    const objectsBefore = new Set(git(remote, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"]).trim().split("\n"));
    const second = a.json<PushJson>(["sync", "push"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.json.parent).toBe(first.json.commit);
    // New on the remote: the last segment, the run's meta, the trees above them and the commit — not the file again.
    const added = git(remote, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) %(objectsize)"]).trim().split("\n").map((l) => l.split(" ")).filter(([oid]) => !objectsBefore.has(oid!));
    const oldSegments = segs.slice(0, 2).map((s) => git(remote, ["rev-parse", `${second.json.commit}:timelines/big/${s}`]).trim());
    expect(oldSegments).toEqual(segs.slice(0, 2).map((s) => git(remote, ["rev-parse", `${first.json.commit}:timelines/big/${s}`]).trim()));
    expect(added.map(([oid]) => oid)).not.toEqual(expect.arrayContaining([oldSegments[0]]));
    expect(added.length).toBe(second.json.new_objects);
    expect(added.length).toBeLessThanOrEqual(8);
    // What goes over the wire: the thin pack git sends (the segment as a delta of the one the remote has).
    const thin = spawnSync("git", ["pack-objects", "--revs", "--thin", "--stdout", "-q"], { cwd: a.root, input: `${second.json.commit}\n^${first.json.commit}\n` });
    expect(thin.status).toBe(0);
    expect(thin.stdout.length).toBeGreaterThan(0);
    expect(thin.stdout.length).toBeLessThanOrEqual(64 * 1024);
    expect(second.json.sent_bytes).toBeGreaterThan(0);
    expect(second.json.sent_bytes).toBeLessThanOrEqual(64 * 1024);
    expect(first.json.sent_bytes).toBeGreaterThan(10 * thin.stdout.length);
    const after = a.json<{ runs: { run_id: string; local_entries: number; pushed_entries: number }[] }>(["sync", "status", "--offline"]);
    expect(after.json.runs.find((r) => r.run_id === "big")).toEqual({ run_id: "big", local_entries: 10_100, pushed_entries: 10_100 });
  });

  it("gives a copied workspace a new id and its own ref", () => {
    const { dir, remote } = bareRemote();
    const a = cloneMachine(dir, remote, "a");
    a.aop(["feature", "init", "feat_a"]);
    expect(a.aop(["sync", "push"]).code).toBe(0);
    const copy = path.join(dir, "a-copy");
    fs.cpSync(a.root, copy, { recursive: true });
    const c = machine(copy);
    const r = c.json<PushJson>(["sync", "push"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.workspace_id).not.toBe(a.workspaceId());
    expect(r.json.parent).toBeNull();
    expect(JSON.parse(fs.readFileSync(path.join(copy, ".aop/workspace.json"), "utf8"))).toMatchObject({ previous_id: a.workspaceId() });
    const refs = git(remote, ["for-each-ref", "--format=%(refname)", "refs/aop/records/"]).trim().split("\n").sort();
    expect(refs).toEqual([`refs/aop/records/${a.workspaceId()}`, `refs/aop/records/${r.json.workspace_id}`].sort());
  });

  it("names the server's message when a remote refuses custom refs", () => {
    const { dir, remote } = bareRemote();
    const hook = path.join(remote, "hooks", "pre-receive");
    fs.writeFileSync(hook, '#!/bin/sh\nwhile read old new ref; do case "$ref" in refs/aop/*) echo "custom refs are not allowed on this server" >&2; exit 1;; esac; done\nexit 0\n', { mode: 0o755 });
    const a = cloneMachine(dir, remote, "a");
    const r = a.aop(["sync", "push"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error sync_ref_refused: origin refused refs\/aop\/records\/[0-9a-f]{32} \(remote rejected \(pre-receive hook declined\)\): custom refs are not allowed on this server/);
    expect(r.stderr).toMatch(/hint: the server does not accept custom refs/);
  });

  it("refuses hostile trees on pull (symlink, '..', a path outside the layout, a submodule, an oversized blob) and still pulls the good origin", () => {
    const { dir, remote } = bareRemote();
    const a = cloneMachine(dir, remote, "a");
    const b = cloneMachine(dir, remote, "b");
    expect(a.aop(["sync", "push"]).code).toBe(0);
    const good = git(remote, ["rev-parse", `refs/aop/records/${a.workspaceId()}`]).trim();
    const blob = git(remote, ["hash-object", "-w", "--stdin"], "x\n").trim();
    const head = git(remote, ["rev-parse", "main"]).trim();
    const big = path.join(dir, "big.bin");
    fs.writeFileSync(big, Buffer.alloc(64 * 1024 * 1024 + 1));
    const bigBlob = git(remote, ["hash-object", "-w", big]).trim();
    const hostile: [string, string, RegExp][] = [
      ["a".repeat(32), `120000 blob ${blob}\tworkspace.json\n`, /symbolic link/],
      ["b".repeat(32), `100644 blob ${blob}\t..\n`, /not a plain name/],
      ["c".repeat(32), `100644 blob ${blob}\tagentic\n`, /not a records file/],
      ["d".repeat(32), `160000 commit ${head}\tmemory\n`, /submodule/],
      ["e".repeat(32), `100644 blob ${bigBlob}\thandoff.json\n`, /larger than 67108864 bytes/],
    ];
    for (const [id, tree, _] of hostile) {
      const t = git(remote, ["mktree"], tree).trim();
      const commit = git(remote, ["commit-tree", t, "-m", "hostile"]).trim();
      git(remote, ["update-ref", `refs/aop/records/${id}`, commit]);
    }
    const r = b.json<PullJson>(["sync", "pull"]);
    expect(r.code).toBe(1);
    const byId = new Map(r.json.origins.map((o) => [o.workspace_id, o]));
    expect(byId.get(a.workspaceId())).toMatchObject({ status: "pulled" });
    for (const [id, , reason] of hostile) {
      expect(byId.get(id)?.status, id).toBe("refused");
      expect(byId.get(id)?.reason).toMatch(reason);
      expect(fs.existsSync(path.join(b.root, ".aop/remote/origin", id))).toBe(false);
    }
    expect(fs.readdirSync(path.join(b.root, ".aop/remote/origin"))).toEqual([a.workspaceId()]);
    expect(good).toMatch(/^[0-9a-f]{40}$/);
    const human = b.aop(["sync", "pull"]);
    expect(human.stdout).toMatch(/refused .*\(aaaaaaaa\): 'workspace\.json' is a symbolic link/);
    expect(human.stderr).toMatch(/error sync_remote_tree_refused: 5 origins refused/);
  });
});

describe("aop sync through git daemon, status of origins, prune", () => {
  let daemon: ChildProcess | null = null;
  afterAll(() => {
    daemon?.kill();
  });

  async function freePort(): Promise<number> {
    return new Promise((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
  }

  it("pushes and pulls over git://127.0.0.1, tells how far a pulled origin is behind, and prunes only pushed runs", async () => {
    const { dir } = bareRemote();
    const port = await freePort();
    daemon = spawn("git", ["daemon", "--export-all", "--enable=receive-pack", `--base-path=${dir}`, "--listen=127.0.0.1", `--port=${port}`, "--reuseaddr", dir], { env: { ...process.env, ...GIT_ENV }, stdio: "ignore" });
    const url = `git://127.0.0.1:${port}/remote.git`;
    for (let i = 0; i < 100 && spawnSync("git", ["ls-remote", url], { env: { ...process.env, ...GIT_ENV } }).status !== 0; i++) await new Promise((r) => setTimeout(r, 50));
    const a = cloneMachine(dir, url, "a");
    const b = cloneMachine(dir, url, "b");
    await appendEntries(a.root, "old-run", 0, 3);
    expect(a.aop(["sync", "push"]).code).toBe(0);
    expect(b.json<PullJson>(["sync", "pull"]).json.origins[0]!.status).toBe("pulled");
    await appendEntries(a.root, "old-run", 3, 2);
    expect(a.aop(["sync", "push"]).code).toBe(0);
    await appendEntries(a.root, "new-run", 0, 1);
    expect(a.aop(["sync", "push"]).code).toBe(0);
    const status = b.json<{ origins: { workspace_id: string; behind: number | null }[]; remote_checked: boolean }>(["sync", "status"]);
    expect(status.json.remote_checked).toBe(true);
    // Not fetched yet: the remote's newer commits are not here, so the count is unknown, never a guess.
    expect(status.json.origins).toEqual([expect.objectContaining({ workspace_id: a.workspaceId(), behind: null })]);
    spawnSync("git", ["fetch", "-q", "origin", "+refs/aop/records/*:refs/aop/remotes/origin/*"], { cwd: b.root, env: { ...process.env, ...GIT_ENV } });
    expect(b.json<{ origins: { behind: number | null }[] }>(["sync", "status"]).json.origins[0]!.behind).toBe(2);
    expect(b.aop(["sync", "status"]).stdout).toMatch(/pulled .* at [0-9a-f]{12}; 2 commits behind/);
    expect(b.json<PullJson>(["sync", "pull"]).json.origins[0]!.status).toBe("pulled");
    expect(fs.readFileSync(path.join(b.root, ".aop/remote/origin", a.workspaceId(), ".aop/runtime/replay/old-run.timeline.jsonl")).equals(fs.readFileSync(path.join(a.root, ".aop/runtime/replay/old-run.timeline.jsonl")))).toBe(true);
    expect(b.json<{ origins: { behind: number | null }[] }>(["sync", "status"]).json.origins[0]!.behind).toBe(0);

    // Prune: an unpushed entry keeps its run; pushed ones go and are counted.
    await appendEntries(a.root, "new-run", 1, 1);
    const dry = a.json<{ pruned: { run_id: string }[]; kept: { run_id: string; reason: string }[] }>(["sync", "prune", "--older-than", "0", "--dry-run"]);
    expect(dry.json.pruned.map((p) => p.run_id)).toEqual(["old-run"]);
    expect(dry.json.kept).toEqual([{ run_id: "new-run", reason: "has entries no remote holds (push first)" }]);
    expect(fs.existsSync(path.join(a.root, ".aop/runtime/replay/old-run.timeline.jsonl"))).toBe(true);
    expect(a.json(["sync", "prune"]).json).toMatchObject({ pruned: [], older_than_days: 30 });
    const pruned = a.json<{ pruned: { run_id: string; entries: number }[] }>(["sync", "prune", "--older-than", "0"]);
    expect(pruned.json.pruned).toEqual([{ run_id: "old-run", entries: 5, remote: "origin" }]);
    expect(fs.existsSync(path.join(a.root, ".aop/runtime/replay/old-run.timeline.jsonl"))).toBe(false);
    expect(fs.existsSync(path.join(a.root, ".aop/runtime/replay/new-run.timeline.jsonl"))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(a.root, ".aop/runtime/replay/retention.json"), "utf8"))).toMatchObject({ pruned_runs: 1, pruned_entries: 5 });
    // A later push does not bring the pruned run back, nor drop it from the remote's history.
    const push = a.json<PushJson>(["sync", "push"]);
    expect(push.code).toBe(0);
    expect(treePaths(a.root, `${push.json.commit}:timelines`)).toContain("old-run/seg-000000000000.jsonl");
    expect(a.json<{ runs: unknown[] }>(["sync", "status", "--offline"]).json.runs).toContainEqual({ run_id: "old-run", local_entries: 0, pushed_entries: 5 });
    daemon.kill();
    daemon = null;
  }, 60_000);
});

describe("aop sync errors", () => {
  it("outside git, an unknown remote, git missing, an uninitialised repository, and --help", () => {
    const { dir, remote } = bareRemote();
    const a = cloneMachine(dir, remote, "a");
    const notGit = tempDir();
    fs.mkdirSync(path.join(notGit, ".aop"));
    const r1 = machine(notGit).aop(["sync", "push"]);
    expect(r1.stderr).toMatch(/^error sync_not_a_git_repository: .* is not inside a git repository/);
    const r2 = a.aop(["sync", "push", "upstream"]);
    expect(r2.stderr).toMatch(/^error sync_unknown_remote: this repository has no remote 'upstream' \(it has: origin\)/);
    expect(a.aop(["sync", "pull", "../evil"]).stderr).toMatch(/^error sync_unknown_remote: '..\/evil' is not a remote name/);
    const noGit = runCli(["--root", a.root, "sync", "status"], { env: { PATH: tempDir() } });
    expect(noGit.stderr).toMatch(/^error sync_git_missing: git is not installed/);
    const plain = path.join(dir, "plain");
    git(dir, ["clone", "-q", remote, plain]);
    const r3 = runCli(["sync", "push"], { cwd: plain, env: GIT_ENV });
    expect(r3.stderr).toMatch(/^error workspace_not_found: /);
    expect(fs.existsSync(path.join(plain, ".aop"))).toBe(false);
    // A workspace aop has recorded in (it has .aop/) but whose id was never made: the first sync makes it.
    fs.mkdirSync(path.join(plain, ".aop"));
    const first = runCli(["sync", "push", "--json"], { cwd: plain, env: GIT_ENV });
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as PushJson).workspace_id).toBe(machine(plain).workspaceId());
    for (const sub of ["push", "pull", "status", "prune"]) {
      const help = runCli(["sync", sub, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Examples?:\n {2}\$ aop sync /);
    }
  });
});
