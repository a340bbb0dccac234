// Black-box: the built CLI, through both `aop checkpoint …` and the `checkpoint` bin (same subcommands).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, type CliOptions } from "../../helpers/cli.js";
import { CHECKPOINT_BIN, CLI_BIN } from "../../helpers/paths.js";
import { checkpointPath, checkpointWorkspace, exampleCheckpoint, minimalCheckpoint } from "../../domains/checkpoints/fixture.js";
import { readJson, tempDir, writeFile } from "../../helpers/tmp.js";

const NOW = "2026-03-01T10:00:00.000Z";
const BINS: [string, (args: string[], options?: CliOptions) => ReturnType<typeof runCli>][] = [
  ["aop checkpoint", (args, options = {}) => runCli(["checkpoint", ...args], { ...options, env: { AOP_NOW: NOW, ...options.env } })],
  ["checkpoint", (args, options = {}) => runCli(args, { ...options, bin: CHECKPOINT_BIN, env: { AOP_NOW: NOW, ...options.env } })],
];

function json(r: { stdout: string; stderr: string; code: number }): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new Error(`not JSON (exit ${r.code}):\n${r.stdout}\n--- stderr ---\n${r.stderr}`);
  }
}

describe.each(BINS)("%s", (_name, cli) => {
  it("validate: no checkpoints says so and exits 0", () => {
    const root = checkpointWorkspace();
    fs.rmSync(path.join(root, ".checkpoints"), { recursive: true });
    const r = cli(["validate"], { cwd: root });
    expect(r).toMatchObject({ code: 0, stdout: "no checkpoints folder at .checkpoints/ (nothing to validate)\n" });
  });

  it("validate: exit 1 on errors, --json {ok, files: [{file, skill, errors, warnings, hints}]}", () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint(), broken: minimalCheckpoint("broken", { status: "paused" }) });
    const human = cli(["validate"], { cwd: root });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("✓ architect.checkpoint.json\n✗ broken.checkpoint.json\n    error   status: must be in_progress, blocked, complete or failed (got the string 'paused')\n");
    expect(human.stdout).toMatch(/2 files: 1 valid, 1 with errors; 1 error, 0 warnings — failed\n$/);
    const machine = cli(["validate", "--json"], { cwd: root });
    expect(machine.code).toBe(1);
    expect(json(machine)).toEqual({
      ok: false,
      files: [
        { file: "architect.checkpoint.json", skill: "architect", errors: [], warnings: [], hints: [] },
        { file: "broken.checkpoint.json", skill: "broken", errors: [{ path: "status", message: "must be in_progress, blocked, complete or failed (got the string 'paused')" }], warnings: [], hints: [] },
      ],
    });
  });

  it("validate --strict fails on warnings; --dir points at another folder", () => {
    const root = checkpointWorkspace();
    const other = path.join(root, "elsewhere", ".checkpoints");
    fs.mkdirSync(other, { recursive: true });
    fs.writeFileSync(path.join(other, "b.checkpoint.json"), JSON.stringify(minimalCheckpoint("b", { context_primer: undefined })));
    expect(cli(["validate", "--dir", other], { cwd: root }).code).toBe(0);
    const strict = cli(["validate", "--strict", "--dir", "elsewhere/.checkpoints"], { cwd: root });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("warning context_primer: is missing while status is in_progress");
  });

  it("next --json {skill, action, why, rank, …}: a decision's proposed resolution is the action", () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint(), b: minimalCheckpoint("b") });
    expect(json(cli(["next", "--json"], { cwd: root }))).toEqual({
      skill: "architect", file: "architect.checkpoint.json", status: "in_progress", phase: "design", step: "api-contract", updated_at: "2026-03-01T09:30:00.000Z", rank: 1,
      why: "Blocked on your decision: Choose the message queue for domain events: SQS or RabbitMQ",
      action: "SQS: the team already runs on AWS and needs no broker upkeep",
      all_stale: false, skipped: 0, over_budget: false, valid: true,
    });
  });

  it("next skips a queued action the project's git history reports finished, and ranks a file with errors", () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: ["Review PR #40", "Write the changelog"] }) });
    const git = (...args: string[]) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: root });
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "Merge pull request #40 from dana/refunds");
    const human = cli(["next"], { cwd: root });
    expect(human).toMatchObject({ code: 0, stderr: "" });
    expect(human.stdout).toBe("b  (in_progress — build/write-handlers)\nWhy:    Handlers half written.  (skipped 1 stale action referencing already-merged work)\nAction: Write the changelog\n");
    writeFile(root, ".checkpoints/c.checkpoint.json", JSON.stringify(minimalCheckpoint("c", { status: "failed", next_actions: ["Bisect"], blockers: [{ id: "x", description: "CI red", needs: "nobody" }] })));
    const invalid = cli(["next"], { cwd: root });
    expect(invalid.stdout).toBe("c  (failed — build/write-handlers)\nWhy:    failed: CI red\nAction: Bisect\n");
    expect(invalid.stderr).toBe("note: c.checkpoint.json has validation errors: run `checkpoint validate`\n");
  });

  it("update then done: the change lands in the file", () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b") });
    const up = cli(["update", "b", "--step=review", "--next_actions+=Open the PR", '--progress_table:json+={"id":"pr","label":"Pull request","status":"not_started"}'], { cwd: root });
    expect(up.stderr).toBe("");
    expect(up.stdout).toBe(`updated .checkpoints/b.checkpoint.json (3 changes, updated_at ${NOW})\n`);
    const done = cli(["done", "b", "--json"], { cwd: root });
    expect(json(done)).toMatchObject({ skill: "b", done: { at: NOW, action: "Write the refund handler" }, next_action: "Open the PR", remaining: 1, status: "in_progress", verify: null });
    expect(readJson<{ step: string; progress_table: unknown[] }>(checkpointPath(root, "b"))).toMatchObject({ step: "review", progress_table: [{}, { id: "pr" }] });
  });

  it("resume prints the Markdown orientation block", () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    const r = cli(["resume", "architect"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^## Resume: architect — shop-api\n/);
    expect(r.stdout).toContain("- **Last update:** 30m ago (2026-03-01T09:30:00.000Z)\n");
    expect(r.stdout).toContain("### Decisions needed from the user\n- **queue-choice**: Choose the message queue");
    expect(r.stdout).toMatch(/### What to do\n\*\*Ask the user first\*\* — blocker queue-choice needs the user's decision: ask before doing anything else\.\n$/);
  });

  it("every subcommand's --help shows an example invoking this bin", () => {
    const prefix = _name;
    expect(cli(["--help"]).stdout).toMatch(/Examples?:\n {2}\$ (aop )?checkpoint /);
    for (const sub of ["validate", "status", "next", "doctor", "update", "done", "init", "list", "show", "reset", "resume"]) {
      const r = cli([sub, "--help"]);
      expect(r.code, sub).toBe(0);
      expect(r.stdout, sub).toContain(`Example`);
      expect(r.stdout, sub).toContain(`$ ${prefix} ${sub}`);
    }
  });

  it("a skill with / is invalid_argument (exit 1, no stack trace); an unknown subcommand is a usage error (exit 2)", () => {
    const root = checkpointWorkspace();
    const bad = cli(["show", "../../etc/passwd"], { cwd: root });
    expect(bad).toMatchObject({ code: 1, stdout: "" });
    expect(bad.stderr).toBe("error invalid_argument: skill must not contain '/' or '\\'\n");
    const unknown = cli(["frobnicate"], { cwd: root });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error usage_error: unknown command 'frobnicate'/);
  });
});

describe("checkpoint subcommands (one bin each is enough: they share the code)", () => {
  const cli = BINS[1]![1];
  const aop = BINS[0]![1];

  it("the bin and `aop checkpoint` print the same thing", () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint(), broken: "{\n  \"skill\": \"broken\",\n}" });
    const viaBin = cli(["validate", "--json"], { cwd: root });
    expect(viaBin).toEqual(aop(["validate", "--json"], { cwd: root }));
    expect(json(viaBin).files[1].errors).toEqual([{ path: "", message: "is not valid JSON (line 3, column 1: trailing comma before '}')" }]);
  });

  it("validate names every problem of a fixture set (valid, warnings only, schema and rule errors, an unknown key, broken JSON); valid files only exit 0", () => {
    const root = checkpointWorkspace({
      architect: exampleCheckpoint(),
      quiet: minimalCheckpoint("quiet", { context_primer: undefined, blockers: [{ id: "b1", description: "x", needs: "code_fix", blocking: "nowhere" }] }),
      paused: minimalCheckpoint("paused", { status: "paused", progress_table: [{ id: "a", label: "A", status: "finished" }] }),
      renamed: minimalCheckpoint("other-name", { created_at: "2026-03-01T10:00:00.000Z", updated_at: "2026-02-30T09:00:00.000Z" }),
      typo: minimalCheckpoint("typo", { next_action: "Write it" }),
      broken: '{\n  "skill": "broken",\n}',
    });
    const r = cli(["validate"], { cwd: root });
    expect(r).toMatchObject({ code: 1, stderr: "" });
    expect(r.stdout.split("\n").filter((l) => /^[✓✗!] /.test(l))).toEqual([
      "✓ architect.checkpoint.json",
      "✗ broken.checkpoint.json",
      "✗ paused.checkpoint.json",
      "! quiet.checkpoint.json",
      "✗ renamed.checkpoint.json",
      "✓ typo.checkpoint.json",
    ]);
    expect(r.stdout).toContain("    hint    next_action: is not a Checkpoint Protocol field");
    expect(r.stdout).toMatch(/\n6 files: 3 valid, 3 with errors; 5 errors, 2 warnings, 1 hint — failed\n$/);
    const valid = checkpointWorkspace({ architect: exampleCheckpoint(), builder: minimalCheckpoint("builder") });
    expect(cli(["validate", "--strict"], { cwd: valid })).toMatchObject({ code: 0, stdout: expect.stringMatching(/2 files: 2 valid, 0 with errors; 0 errors, 0 warnings — ok\n$/) });
  });

  it("validate's own flag before the subcommand is a usage error, through the bin and `aop checkpoint` alike", () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() });
    for (const [label, r] of [
      ["checkpoint bin", cli(["--strict", "validate"], { cwd: root })],
      ["aop checkpoint", aop(["--strict", "validate"], { cwd: root })],
    ] as const) {
      expect(r, label).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(/^error usage_error: unknown option '--strict'/) });
    }
  });

  it("status: decisions first, then the table with a stale marker, then each skill", () => {
    const root = checkpointWorkspace({
      architect: exampleCheckpoint(),
      builder: minimalCheckpoint("builder", { updated_at: "2026-02-20T09:00:00.000Z", created_at: "2026-02-19T09:00:00.000Z" }),
    });
    const r = cli(["status"], { cwd: root });
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("Decisions waiting on you");
    expect(lines[1]).toMatch(/^ {2}\? architect · queue-choice: Choose the message queue/);
    expect(lines[3]).toMatch(/^skill +phase +step +status +updated +age$/);
    expect(lines[4]).toMatch(/^architect +design +api-contract +in_progress +2026-03-01 09:30Z +30m ago$/);
    expect(lines[5]).toMatch(/^builder +build +write-handlers +in_progress +2026-02-20 09:00Z +9d ago STALE$/);
    expect(r.stdout).toContain("architect — in_progress, 2/5 done\n");
    expect(r.stdout).toContain("  next:\n    1. Finish the error model of the orders contract\n    2. Draft the payments and refunds endpoints (SHOP-31)\n");
    expect(r.stdout).toContain("builder — in_progress, 0/1 done (stale: over 7 days)\n");
    const brief = cli(["status", "--brief"], { cwd: root });
    expect(brief.stdout).not.toContain("next:");
    const since = json(cli(["status", "--since", "2026-02-25T00:00:00Z", "--json"], { cwd: root }));
    expect(since.checkpoints.map((c: { skill: string }) => c.skill)).toEqual(["architect"]);
    expect(since.decisions).toEqual([{ skill: "architect", blocker_id: "queue-choice", description: "Choose the message queue for domain events: SQS or RabbitMQ", proposed_resolution: "SQS: the team already runs on AWS and needs no broker upkeep" }]);
    expect(cli(["status", "--since", "last tuesday"], { cwd: root })).toMatchObject({ code: 2 });
  });

  it("doctor: exit 0 with warnings only, 1 with --fail-on-warnings, 1 on validation errors", () => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint() }); // its generated files do not exist here
    const r = cli(["doctor"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("[WARNING] architect: generated file docs/adr/003-tenancy.md (context_primer.generated_files) does not exist\n[WARNING] architect: generated file docs/api/orders.yaml (context_primer.generated_files) does not exist\ncheckpoint doctor: 1 file, 0 errors, 2 warnings\n");
    expect(cli(["doctor", "--fail-on-warnings"], { cwd: root }).code).toBe(1);
    const machine = json(cli(["doctor", "--json"], { cwd: root }));
    expect(machine).toMatchObject({ ok: true, checked: 1, summary: { errors: 0, warnings: 2 } });
    expect(machine.findings[0]).toEqual({ kind: "generated_file_missing", level: "warning", skill: "architect", file: "architect.checkpoint.json", message: expect.any(String), refs: [".checkpoints/architect.checkpoint.json", "docs/adr/003-tenancy.md"] });
    fs.writeFileSync(checkpointPath(root, "broken"), "[]");
    expect(cli(["doctor"], { cwd: root }).code).toBe(1);
  });

  it("update refuses an invalid result: prints why, exit 1, file unchanged", () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b") });
    const before = fs.readFileSync(checkpointPath(root, "b"));
    const r = cli(["update", "b", "--status=finished"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("error checkpoint_invalid: refused to update b: the result would be invalid: b.checkpoint.json status must be in_progress, blocked, complete or failed (got the string 'finished')\nhint: nothing was written; change the values so the result validates\n");
    expect(fs.readFileSync(checkpointPath(root, "b")).equals(before)).toBe(true);
    expect(cli(["update", "b"], { cwd: root })).toMatchObject({ code: 2, stderr: expect.stringMatching(/nothing to update/) });
    expect(cli(["update", "b", "step=x"], { cwd: root })).toMatchObject({ code: 2, stderr: expect.stringMatching(/'step=x' is not an assignment/) });
  });

  it("done --verify shows the command's output and pops only on exit 0; empty queue is an error", () => {
    const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: [{ text: "fails", done_when: "echo 1 test failed; exit 1" }] }) });
    const failed = cli(["done", "b", "--verify"], { cwd: root });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("1 test failed\n");
    expect(failed.stderr).toContain("error checkpoint_verify_failed: done_when exited 1, so nothing was marked done");
    cli(["update", "b", '--next_actions[0]:json={"text":"passes","done_when":"echo all green"}'], { cwd: root });
    const passed = cli(["done", "b", "--verify", "--status", "complete"], { cwd: root });
    expect(passed.code).toBe(0);
    expect(passed.stderr).toContain("all green\n");
    expect(passed.stdout).toMatch(/^verified `echo all green` exited 0 in \d+ms\ndone passes\nqueue empty \(status complete\)\n$/);
    expect(cli(["done", "b"], { cwd: root })).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error checkpoint_queue_empty: b has no next action to mark done/) });
    expect(cli(["done", "b", "--status", "finished"], { cwd: root }).code).toBe(2);
  });

  it("--json prints exactly the data of the corresponding tool (mutating commands are presenters over it, read-only ones share its view)", () => {
    const cases: [string[], string, Record<string, unknown>][] = [
      [["list"], "checkpoint.list", {}],
      [["show", "architect"], "checkpoint.get", { skill: "architect", as_skill: "architect" }],
      [["next"], "checkpoint.next", {}],
      [["validate", "--strict"], "checkpoint.validate", { strict: true }],
      [["update", "b", "--step=review", "--next_actions+=Open the PR"], "checkpoint.update", { skill: "b", as_skill: "b", assignments: [{ path: "step", op: "set", value: "review" }, { path: "next_actions", op: "append", value: "Open the PR" }] }],
      [["done", "b", "--status", "complete"], "checkpoint.done", { skill: "b", status: "complete" }],
      [["reset", "b"], "checkpoint.reset", { skill: "b" }],
      [["init"], "checkpoint.init", {}],
    ];
    for (const [argv, tool, args] of cases) {
      const cliSide = checkpointWorkspace({ architect: { ...exampleCheckpoint(), skill_state: { cursor: 3 } }, b: minimalCheckpoint("b") });
      const toolSide = tempDir();
      fs.cpSync(cliSide, toolSide, { recursive: true });
      const env = { AOP_NOW: NOW };
      const printed = json(cli([...argv, "--json"], { cwd: cliSide, env }));
      const called = json(runCli(["call", tool, "--args", JSON.stringify(args), "--json"], { cwd: toolSide, env }));
      expect(called.ok, `${tool}: ${JSON.stringify(called)}`).toBe(true);
      expect(printed, argv.join(" ")).toEqual(called.data);
    }
  });

  it("done --verify runs done_when with the policy's env allowlist, not the whole environment, whichever bin", () => {
    for (const [, run] of BINS) {
      const root = checkpointWorkspace({ b: minimalCheckpoint("b", { next_actions: [{ text: "no secret", done_when: 'test -z "$AOP_WALK_SECRET" && test -n "$PATH"' }, "next"] }) });
      const r = run(["done", "b", "--verify", "--json"], { cwd: root, env: { AOP_WALK_SECRET: "leaked" } });
      expect(r.code, r.stderr).toBe(0);
      expect(json(r)).toMatchObject({ done: { action: "no secret" }, verify: { exit_code: 0 } });
      // Allow-listed by the policy, the variable does reach the command.
      writeFile(root, "agentic/orchestrator/policy.yaml", "execution:\n  env_allowlist: [PATH, AOP_WALK_SECRET]\n");
      const up = run(["update", "b", '--next_actions:json=[{"text":"secret","done_when":"test -n \\"$AOP_WALK_SECRET\\""},"later"]'], { cwd: root });
      expect(up.code, up.stderr).toBe(0);
      const seen = run(["done", "b", "--verify"], { cwd: root, env: { AOP_WALK_SECRET: "seen" } });
      expect(seen.code, seen.stderr).toBe(0);
    }
  });

  it("--transport mcp serves the --dir folder too (the server is started with it)", () => {
    const root = checkpointWorkspace();
    const other = path.join(root, "elsewhere", ".checkpoints");
    fs.mkdirSync(other, { recursive: true });
    fs.writeFileSync(path.join(other, "b.checkpoint.json"), JSON.stringify(minimalCheckpoint("b"), null, 2));
    const r = runCli(["--transport", "mcp", "checkpoint", "--dir", other, "update", "b", "--step=over-mcp", "--json"], { cwd: root, env: { AOP_NOW: NOW } });
    expect(r.code, r.stderr).toBe(0);
    expect(readJson<{ step: string }>(path.join(other, "b.checkpoint.json")).step).toBe("over-mcp");
    expect(fs.existsSync(checkpointPath(root, "b"))).toBe(false);
  });

  it("init, list, show, reset", () => {
    const root = checkpointWorkspace();
    fs.rmSync(path.join(root, ".checkpoints"), { recursive: true });
    expect(cli(["init"], { cwd: root }).stdout).toBe("  created  .checkpoints/\n  created  .checkpoints/.gitignore\n");
    fs.writeFileSync(checkpointPath(root, "architect"), JSON.stringify(exampleCheckpoint(), null, 2));
    expect(cli(["list"], { cwd: root }).stdout).toMatch(/^skill +status +phase +step +updated +valid\narchitect +in_progress +design +api-contract +2026-03-01 09:30Z +ok\n$/);
    const shown = cli(["show", "architect"], { cwd: root });
    expect(shown.stdout).toMatch(/^# \.checkpoints\/architect\.checkpoint\.json — valid\n\{\n {2}"protocol_version": "1\.0",/);
    expect(json(cli(["show", "--json"], { cwd: root })).checkpoints[0]).toMatchObject({ skill: "architect", valid: true, checkpoint: { skill: "architect" } });
    const reset = cli(["reset", "architect"], { cwd: root });
    expect(reset.stdout).toMatch(/^moved \.checkpoints\/architect\.checkpoint\.json → \.checkpoints\/history\/architect\.20260301T100000\.000Z\.checkpoint\.json\n/);
    expect(cli(["list"], { cwd: root }).stdout).toBe("no checkpoints in .checkpoints/\n");
    expect(cli(["show", "architect"], { cwd: root })).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error checkpoint_not_found: no checkpoint for skill 'architect'/) });
  });

  it("a reader that stops early (| head) ends the command quietly, without a stack trace", () => {
    const files: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) files[`s${i}`] = minimalCheckpoint(`s${i}`);
    const root = checkpointWorkspace(files);
    const r = spawnSync("sh", ["-c", `"${process.execPath}" "${CHECKPOINT_BIN}" show | head -c 10`], { cwd: root, encoding: "utf8" });
    expect(r.stdout).toBe("# .checkpo");
    expect(r.stderr).toBe("");
  });

  it("a symlink pointing outside the project is reported, not followed", () => {
    const root = checkpointWorkspace({ a: minimalCheckpoint("a") });
    const outside = fs.realpathSync(writeFile(tempDir(), "secret.json", JSON.stringify(minimalCheckpoint("evil"))));
    fs.symlinkSync(outside, checkpointPath(root, "evil"));
    const r = json(cli(["validate", "--json"], { cwd: root }));
    expect(r.files[1]).toEqual({ file: "evil.checkpoint.json", skill: "evil", errors: [{ path: "", message: `is a symbolic link to ${outside}, outside the project: refused, not followed (replace it with a regular file)` }], warnings: [], hints: [] });
  });
});

describe("output redirected to a file or /dev/null (written directly, without process.stdout)", () => {
  /** Runs a bin with stdout sent to `target` (a file path or /dev/null); colors left to the bin to decide. */
  function runInto(target: string, bin: string, args: string[], cwd: string) {
    const fd = fs.openSync(target, "w");
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, AOP_NOW: NOW };
      delete env.NO_COLOR;
      delete env.FORCE_COLOR;
      const r = spawnSync(process.execPath, [bin, ...args], { cwd, env, stdio: ["ignore", fd, "pipe"], encoding: "utf8" });
      return { code: r.status, stderr: r.stderr };
    } finally {
      fs.closeSync(fd);
    }
  }

  it.each([
    ["checkpoint validate", CHECKPOINT_BIN, ["validate"]],
    ["checkpoint validate --json", CHECKPOINT_BIN, ["validate", "--json"]],
    ["aop checkpoint list --json", CLI_BIN, ["checkpoint", "list", "--json"]],
    ["aop --help", CLI_BIN, ["--help"]],
  ])("%s: a file receives exactly what a pipe receives, without colors; /dev/null gets the same exit code", (_name, bin, args) => {
    const root = checkpointWorkspace({ architect: exampleCheckpoint(), broken: '{\n  "skill": "broken",\n}' });
    const piped = runCli(args, { cwd: root, env: { AOP_NOW: NOW, NO_COLOR: undefined }, bin });
    expect(piped.stdout.includes("\u001b[")).toBe(false);
    const file = path.join(tempDir(), "out.txt");
    expect(runInto(file, bin, args, root)).toEqual({ code: piped.code, stderr: piped.stderr });
    expect(fs.readFileSync(file, "utf8")).toBe(piped.stdout);
    expect(runInto("/dev/null", bin, args, root)).toEqual({ code: piped.code, stderr: piped.stderr });
  });
});
