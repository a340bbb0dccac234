// aop handoff and aop resume --from through the built CLI, and the SessionStart hook of a second machine
// naming the first one's next action (docs/handoff.md, "Handoff"). Machine B sees machine A's records as
// `aop sync pull` lays them out (test/helpers/pulled.ts); the git round trip itself runs once `aop sync` exists.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { materializePull, snapshotTree } from "../../helpers/pulled.js";
import { tempDir, tempWorkspace, writeFile } from "../../helpers/tmp.js";

const STATE = (next: string) =>
  `# Current State\n\n## Objective\nShip the login API\n\n## Current Step\nWriting the token refresh tests\n\n## Key Decisions\n- JWT, 15 minutes\n\n## Next Action\n${next}\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n`;

function workspace() {
  const root = tempWorkspace();
  const cli = (args: string[], env?: Record<string, string>) => runCli(["--root", root, ...args], env ? { env } : {});
  expect(cli(["init"]).code).toBe(0);
  return { root, cli, json: <T>(args: string[]) => runJson<T>(["--root", root, ...args]) };
}

/** Machine A at the end of a session: state written, a checkpoint with its next action, one run. */
function machineA(next = "Make the refresh test pass on CI") {
  const a = workspace();
  writeFile(a.root, "memory/CURRENT_STATE.md", STATE(next));
  expect(a.cli(["checkpoint", "update", "api", "--status=in_progress", "--phase=build", "--step=tests", "--progress_summary=login done; refresh in progress", "--next_actions+=Fix the refresh test"]).code).toBe(0);
  expect(a.cli(["--run-id", "run:a-work", "feature", "init", "feat_login"]).code).toBe(0);
  return a;
}

interface Note {
  version: number;
  workspace_id: string;
  objective: string;
  next_action: string;
  open_decisions: string[];
  last_run: { run_id: string; last_sequence: number; last_result: string } | null;
  checkpoint: { skill: string; summary: string } | null;
  message: string | null;
  checklist_failures: string[];
}

describe("aop handoff", () => {
  it("refuses while CURRENT_STATE.md or the checkpoint do not say where the work stands, saying what to fix; writes nothing", () => {
    const a = workspace();
    const r = a.cli(["handoff"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/✗ memory\/CURRENT_STATE\.md exists\n\s+fix: create memory\/CURRENT_STATE\.md with the sections Objective, Current Step/);
    expect(r.stderr).toMatch(/✗ a checkpoint records where the work stands\n\s+fix: update the checkpoint of the skill you worked in/);
    expect(r.stderr).toMatch(/^error handoff_incomplete: the handoff checklist is not met \(2 items\)/m);
    expect(fs.existsSync(path.join(a.root, ".aop/runtime/handoff.json"))).toBe(false);

    // A state file without a next action, a checkpoint with nothing queued: each named.
    writeFile(a.root, "memory/CURRENT_STATE.md", STATE(""));
    const cp = a.cli(["checkpoint", "update", "api", "--status=failed", "--phase=build", "--step=tests", "--progress_summary=half way"]);
    expect(cp.code, cp.stderr).toBe(0);
    const failures = runCli(["--root", a.root, "handoff"]).stderr;
    expect(failures).toMatch(/✗ memory\/CURRENT_STATE\.md states the next action\n\s+fix: write what the next session does first under '## Next Action'/);
    expect(failures).toMatch(/✗ checkpoint api queues its next action/);
    expect(failures).not.toMatch(/✗ memory\/CURRENT_STATE\.md exists/);

    // --force writes the note anyway, with the failures in it.
    const forced = a.json<{ note: Note }>(["handoff", "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.json.note.checklist_failures).toEqual([
      "memory/CURRENT_STATE.md states the next action: write what the next session does first under '## Next Action' in memory/CURRENT_STATE.md",
      "checkpoint api queues its next action: queue the next action in checkpoint api (`aop checkpoint update api --next_actions+=…`), or mark it complete",
    ]);
  });

  it("writes the note (schema-valid, atomically, owner-only) from the state, the checkpoint and the last run", () => {
    const a = machineA();
    const r = a.json<{ note_path: string; note: Note; published: { pushed: boolean; remote: string } }>(["handoff", "--to", "origin", "--message", "CI only failure"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.note_path).toBe(".aop/runtime/handoff.json");
    const file = path.join(a.root, ".aop/runtime/handoff.json");
    const onDisk = JSON.parse(fs.readFileSync(file, "utf8")) as Note;
    expect(onDisk).toEqual(r.json.note);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const id = (JSON.parse(fs.readFileSync(path.join(a.root, ".aop/workspace.json"), "utf8")) as { workspace_id: string }).workspace_id;
    expect(onDisk).toMatchObject({
      version: 1,
      workspace_id: id,
      objective: "Ship the login API",
      next_action: "Make the refresh test pass on CI",
      open_decisions: [],
      last_run: { run_id: "run:a-work", last_sequence: 0, last_result: "ok" },
      checkpoint: { skill: "api", summary: "login done; refresh in progress" },
      message: "CI only failure",
      checklist_failures: [],
    });
    expect(r.json.published).toMatchObject({ remote: "origin" });
    const human = a.cli(["handoff"]);
    expect(human.stdout).toMatch(/✓ checkpoint api queues its next action/);
    expect(human.stdout).toMatch(/^handoff note {2}\.aop\/runtime\/handoff\.json/m);
    expect(human.stdout).toMatch(/^ {2}next action {2}Make the refresh test pass on CI$/m);
  });
});

describe("aop resume --from and the SessionStart hook", () => {
  it("resume prints the pulled note; a hostile note is escaped; no note or no origin is a clear error", () => {
    const a = machineA("Run \u001b[2Jthe <script>x</script> suite");
    expect(a.cli(["handoff"]).code).toBe(0);
    const b = workspace();
    const none = b.cli(["resume", "--from", "alice@laptop"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error origin_not_found: no pulled workspace or remote is called 'alice@laptop'; pulled: none/m);

    const pulled = materializePull(a.root, b.root, { displayName: "alice@laptop" });
    const before = snapshotTree(pulled.dir);
    const r = b.cli(["resume", "--from", "alice@laptop"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Handoff from alice@laptop \(/m);
    expect(r.stdout).toMatch(/^Objective: {4}Ship the login API$/m);
    expect(r.stdout).toContain("Next action:  Run \\x1b[2Jthe <script>x</script> suite");
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout).toMatch(/^Last run: {5}alice@laptop\/run:a-work up to sequence 0 \(ok\)/m);
    // The git remote names its newest handoff too.
    const j = b.json<{ origin: { label: string; workspace_id: string }; note: Note }>(["resume", "--from", "origin"]);
    expect(j.json.origin).toMatchObject({ label: "alice@laptop", workspace_id: pulled.workspaceId });
    expect(j.json.note.checkpoint).toEqual({ skill: "api", summary: "login done; refresh in progress" });
    expect(snapshotTree(pulled.dir)).toEqual(before);

    fs.rmSync(path.join(pulled.dir, ".aop/runtime/handoff.json"));
    const gone = b.cli(["resume", "--from", "alice@laptop"]);
    expect(gone.stderr).toMatch(/^error handoff_not_found: origin alice@laptop has no handoff note/m);
    fs.writeFileSync(path.join(pulled.dir, ".aop/runtime/handoff.json"), JSON.stringify({ version: 1, objective: 42 }));
    const bad = b.cli(["resume", "--from", "alice@laptop"]);
    expect(bad.stderr).toMatch(/warning: \.aop\/remote\/origin\/[0-9a-f]{32}\/\.aop\/runtime\/handoff\.json is not a handoff note: /);
    expect(bad.stderr).toMatch(/^error handoff_not_found/m);
  });

  it("a session starting on machine B is told A's next action and objective when A's handoff is newer than B's own work", () => {
    const b = workspace();
    expect(b.cli(["--run-id", "run:b-old", "feature", "list"]).code).toBe(0);
    const a = machineA();
    // A hands off after B's last entry.
    expect(a.cli(["handoff"], { AOP_NOW: new Date(Date.now() + 60_000).toISOString() }).code).toBe(0);
    materializePull(a.root, b.root, { displayName: "alice@laptop" });
    const event = JSON.stringify({ session_id: "sess-b-1", transcript_path: path.join(b.root, "t.jsonl"), cwd: b.root, hook_event_name: "SessionStart", source: "startup" });
    const start = runCli(["hook", "claude"], { cwd: b.root, input: event, env: { CLAUDE_PROJECT_DIR: b.root } });
    expect(start.code).toBe(0);
    const text = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(text).toMatch(/^Handoff from alice@laptop \(.*\) is newer than this workspace's own work/m);
    expect(text).toMatch(/^- Next action: Make the refresh test pass on CI$/m);
    expect(text).toMatch(/^- Objective: Ship the login API$/m);

    // Once B has worked past it (its timeline's last entry is newer), the pulled note no longer leads.
    expect(b.cli(["--run-id", "run:b-new", "feature", "list"], { AOP_NOW: new Date(Date.now() + 120_000).toISOString() }).code).toBe(0);
    const later = runCli(["hook", "claude"], { cwd: b.root, input: event.replace("sess-b-1", "sess-b-2"), env: { CLAUDE_PROJECT_DIR: b.root } });
    expect(later.stdout).not.toMatch(/Handoff from alice@laptop/);
  });
});

// The whole hand-over through a real git remote (docs/handoff.md).
describe("handoff across two clones of one bare remote", () => {
  it("a handoff on clone A is resumed on clone B, whose SessionStart context names A's next action", () => {
    const git = (cwd: string, ...args: string[]) => {
      const r = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@e", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@e" } });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    const base = tempDir("aop-handoff-git-");
    const bare = path.join(base, "remote.git");
    git(base, "init", "--bare", "-q", bare);
    const clone = (name: string) => {
      const dir = path.join(base, name);
      git(base, "clone", "-q", bare, dir);
      return dir;
    };
    const aRoot = clone("a");
    git(aRoot, "commit", "-q", "--allow-empty", "-m", "start");
    git(aRoot, "push", "-q", "origin", "HEAD");
    const bRoot = clone("b");
    const a = (args: string[]) => runCli(["--root", aRoot, ...args]);
    const b = (args: string[]) => runCli(["--root", bRoot, ...args]);
    expect(a(["init"]).code).toBe(0);
    expect(b(["init"]).code).toBe(0);
    writeFile(aRoot, "memory/CURRENT_STATE.md", STATE("Make the refresh test pass on CI"));
    expect(a(["checkpoint", "update", "api", "--status=in_progress", "--phase=build", "--step=tests", "--progress_summary=login done", "--next_actions+=Fix the refresh test"]).code).toBe(0);
    const handed = runJson<{ published: { pushed: boolean } }>(["--root", aRoot, "handoff", "--to", "origin", "--message", "CI only"]);
    expect(handed.code, handed.stderr).toBe(0);
    expect(handed.json.published.pushed).toBe(true);
    expect(b(["sync", "pull", "origin"]).code).toBe(0);
    const resumed = b(["resume", "--from", "origin"]);
    expect(resumed.stdout).toMatch(/^Next action: {2}Make the refresh test pass on CI$/m);
    const event = JSON.stringify({ session_id: "sess-b", transcript_path: path.join(bRoot, "t.jsonl"), cwd: bRoot, hook_event_name: "SessionStart", source: "startup" });
    const start = runCli(["hook", "claude"], { cwd: bRoot, input: event, env: { CLAUDE_PROJECT_DIR: bRoot } });
    const text = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(text).toMatch(/^- Next action: Make the refresh test pass on CI$/m);
  });
});
