// aop state / replay.state_at against a scripted history driven through the real CLI: the state expected
// after each step is written from the script below, never read back from the program.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { sdk2Client, type ConformanceClient } from "../../helpers/mcp-clients.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { recordPath } from "../../../src/store/ledger-files.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";

const RUN = "run:story";
const HOSTILE = "mallory\u001b[2J\u0007";
let root: string;

function git(args: string[], date?: string): void {
  const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com", ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) };
  const r = spawnSync("git", args, { cwd: root, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

function checkpoint(skill: string, status: string, step: string): string {
  return JSON.stringify({ protocol_version: "1.0", skill, project: "p", project_dir: root, created_at: "2026-11-30T09:00:00Z", updated_at: "2026-11-30T09:00:00Z", phase: "build", step, status, progress_summary: "x", next_actions: status === "complete" ? [] : ["ship it"] });
}

/** One CLI call of the script at a pinned time; it must succeed unless told otherwise. */
function at(now: string, args: string[], expectOk = true): void {
  const r = runCli([...args, "--root", root, "--run-id", RUN], { env: { AOP_NOW: now } });
  if (expectOk && r.code !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
}

beforeAll(() => {
  root = tempWorkspace();
  git(["init", "-q", "."]);
  runCli(["init", "--root", root]);
  writeFile(root, "agentic/orchestrator/gates.yaml", `version: 1\nprofiles:\n  default:\n    modes:\n      fast:\n        - name: ok\n          cmd: [${JSON.stringify(process.execPath)}, "-e", "0"]\n`);
  writeFile(root, ".checkpoints/ship.checkpoint.json", checkpoint("ship", "in_progress", "one"));
  git(["add", ".checkpoints"]);
  git(["commit", "-qm", "ship: in progress"], "2026-11-30T09:00:00Z");

  at("2026-12-01T10:00:00.000Z", ["run", "start", "--new-run-id", RUN, "--owner", "alice", "--ttl", "60"]); // 0
  at("2026-12-01T10:00:01.000Z", ["call", "feature.init", "--args", '{"feature_id":"login"}', "--operation-id", "op-init-login"]); // 1
  at("2026-12-01T10:00:02.000Z", ["session", "assign", "--feature-id", "login", "--role", "builder", "--session", "s-1"]); // 2
  at("2026-12-01T10:00:03.000Z", ["gates", "run", "--feature-id", "login", "--mode", "fast"]); // 3
  at("2026-12-01T10:00:04.000Z", ["feature", "set-status", "login", "blocked", "--expected-version", "9"], false); // 4: refused
  at("2026-12-01T10:00:05.000Z", ["call", "feature.init", "--args", '{"feature_id":"login"}', "--operation-id", "op-init-login"]); // 5: replayed
  at("2026-12-01T10:05:00.000Z", ["feature", "set-status", "login", "blocked"]); // 6: the 60 s lease expired at 10:01
  writeFile(root, ".checkpoints/ship.checkpoint.json", checkpoint("ship", "complete", "two"));
  git(["commit", "-qam", "ship: complete"], "2026-12-01T10:05:05Z");
  at("2026-12-01T10:05:10.000Z", ["call", "feature.init", "--args", '{"feature_id":"pay"}', "--operation-id", "op-init-pay"]); // 7
  at("2026-12-01T10:06:00.000Z", ["checkpoint", "update", "build", "--status=in_progress", "--step=s2", "--phase=p", "--progress_summary=x", '--next_actions:json=["write tests"]']); // 8
  at("2026-12-01T10:07:00.000Z", ["run", "start", "--new-run-id", RUN, "--owner", HOSTILE, "--takeover"]); // 9
  // Retention pruned the answer of step 7 from the ledger.
  fs.rmSync(recordPath(new WorkspaceLayout(root), "op-init-pay"));
});

interface State {
  features: Record<string, { status: unknown; version: unknown }>;
  lease: Record<string, unknown>;
  sessions: unknown;
  evidence: Record<string, { chain_length: unknown; head_hash: unknown }>;
  checkpoints: { from_git: unknown; skills: Record<string, Record<string, unknown>> };
}
interface StateAt {
  sequence: number;
  step: { tool_name: string; effect: string; changes: { path: string; before: unknown; after: unknown }[] };
  state: State;
  diff: { changes: { path: string; before: unknown; after: unknown }[] } | null;
}

function stateAt(n: number, extra: string[] = []): StateAt {
  const r = runJson<StateAt>(["state", "--run-id", RUN, "--at", String(n), ...extra, "--root", root]);
  if (r.code !== 0) throw new Error(r.stderr);
  return r.json;
}

function chainHead(): string {
  const line = fs.readFileSync(new WorkspaceLayout(root).chainFile("login"), "utf8").trim().split("\n")[0]!;
  return (JSON.parse(line) as { chain_hash: string }).chain_hash;
}

describe("aop state --at N", () => {
  it("rebuilds each step's features, lease, sessions, evidence and checkpoints as the script made them", () => {
    const head = chainHead();
    const login = (status: string, version: number) => ({ status, version });
    // step → the expected login feature, lease owner/expired, login's builder session, login's chain length
    const expected: [number, ReturnType<typeof login> | undefined, string, boolean, string | undefined, number | undefined][] = [
      [0, undefined, "alice", false, undefined, undefined],
      [1, login("active", 1), "alice", false, undefined, 0],
      [2, login("active", 1), "alice", false, "s-1", 0],
      [3, login("active", 2), "alice", false, "s-1", 1],
      [4, login("active", 2), "alice", false, "s-1", 1],
      [5, login("active", 2), "alice", false, "s-1", 1],
      [6, login("blocked", 3), "alice", true, "s-1", 1],
    ];
    for (const [n, feature, owner, expired, builder, chain] of expected) {
      const { state } = stateAt(n);
      expect(state.features.login === undefined ? undefined : { status: state.features.login.status, version: state.features.login.version }, `step ${n}`).toEqual(feature);
      expect(state.lease, `step ${n}`).toMatchObject({ owner, expired, released: false, run_id: RUN });
      expect((state.sessions as Record<string, Record<string, string>>).login?.builder, `step ${n}`).toBe(builder);
      expect(state.evidence.login?.chain_length, `step ${n}`).toBe(chain);
      if (chain !== undefined) expect(state.evidence.login!.head_hash).toBe(chain === 1 ? head : null);
      expect(state.checkpoints.skills.ship, `step ${n}`).toMatchObject({ status: "in_progress", step: "one" });
    }
    expect(stateAt(4).step.effect).toBe("refused (version_conflict): changed nothing");
    expect(stateAt(4).step.changes).toEqual([]);
    expect(stateAt(5).step.effect).toBe("replayed the answer recorded for op-init-login: changed nothing");
    // Step 7 comes after the second commit of .checkpoints/; step 8's answer tells the build skill.
    expect(stateAt(7).state.checkpoints.skills.ship).toMatchObject({ status: "complete", step: "two" });
    const s8 = stateAt(8).state.checkpoints.skills;
    expect(s8.build).toEqual({ status: "in_progress", step: "s2", next_action: "write tests", updated_at: "2026-12-01T10:06:00.000Z", source: "ledger" });
    expect(stateAt(9).state.lease).toMatchObject({ owner: HOSTILE, expired: false });
  });

  it("a pruned ledger answer makes the fields it told unknown, saying why", () => {
    const { state, step } = stateAt(7);
    expect(state.features.pay!.status).toEqual({ unknown: expect.stringMatching(/^the ledger no longer holds the answer of operation op-init-pay \(step 7, feature\.init\)/) });
    expect(state.features.pay!.version).toEqual(state.features.pay!.status);
    expect(step.effect).toMatch(/^unknown: the ledger no longer holds/);
    expect(state.features.login).toMatchObject({ status: "blocked", version: 3 });
  });

  it("--diff M lists what changed between two steps", () => {
    const r = stateAt(6, ["--diff", "1"]);
    expect(r.diff!.changes.map((c) => [c.path, c.before, c.after])).toEqual([
      ["evidence.login.chain_length", 0, 1],
      ["evidence.login.head_hash", null, chainHead()],
      ["features.login.status", "active", "blocked"],
      ["features.login.version", 1, 3],
      ["lease.expired", false, true],
      ["sessions.login.builder", null, "s-1"],
    ]);
    expect(stateAt(6).step.changes.map((c) => c.path)).toEqual(["features.login.status", "features.login.version", "lease.expired"]);
  });

  it("prints people's output with agent text escaped", () => {
    const r = runCli(["state", "--run-id", RUN, "--at", "9", "--root", root]);
    expect(r.code).toBe(0);
    expect([...r.stdout].filter((c) => c < " " && c !== "\n")).toEqual([]);
    expect(r.stdout).toContain("mallory\\x1b[2J\\x07");
    expect(r.stdout).toMatch(/^state of run:story after step 9/);
    const pruned = runCli(["state", "--run-id", RUN, "--at", "7", "--root", root]).stdout;
    expect(pruned).toMatch(/^ {2}pay\s+unknown\s+unknown\s+7$/m);
    expect(pruned).toMatch(/UNKNOWN \(the record cannot tell\)\n {2}features\.pay\.status, features\.pay\.version: the ledger no longer holds/);
  });

  it("errors: unknown run, step out of range, bad arguments", () => {
    const missing = runCli(["state", "--run-id", "no-such-run", "--at", "0", "--root", root]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error replay_run_not_found: no timeline for run 'no-such-run'/);
    const past = runJson<{ ok: false; error: { code: string; details: { last_sequence: number } } }>(["state", "--run-id", RUN, "--at", "9999", "--root", root]);
    expect(past.code).toBe(1);
    expect(past.json.error.code).toBe("replay_sequence_out_of_range");
    expect(past.json.error.details.last_sequence).toBeGreaterThanOrEqual(9);
    expect(runCli(["state", "--run-id", RUN, "--at", "1", "--diff", "9999", "--root", root]).stderr).toMatch(/^error replay_sequence_out_of_range: diff_sequence 9999/);
    const noAt = runCli(["state", "--run-id", RUN, "--root", root]);
    expect(noAt.code).toBe(2);
    expect(noAt.stderr).toMatch(/--at <n> is required/);
    expect(runCli(["state", "--run-id", RUN, "--at", "-1", "--root", root]).code).toBe(2);
    expect(runCli(["state", "--at", "1", "--root", root]).stderr).toMatch(/--run-id is required/);
    expect(runCli(["call", "replay.state_at", "--args", '{"run_id":"../x","sequence":0}', "--root", root]).stderr).toMatch(/^error invalid_argument/);
  });
});

describe("replay.state_at over MCP", () => {
  let client: ConformanceClient;
  beforeAll(async () => {
    client = await sdk2Client(root);
  });
  afterAll(async () => client?.close());

  it("answers the same state as the CLI, and errors as tool results", async () => {
    const viaCli = stateAt(6);
    const r = await client.callTool("replay_state_at", { run_id: RUN, sequence: 6 });
    expect("value" in r).toBe(true);
    const result = (r as { value: { isError?: boolean; structuredContent?: StateAt } }).value;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.state).toEqual(viaCli.state);
    expect(result.structuredContent!.step).toEqual(viaCli.step);
    const bad = (await client.callTool("replay_state_at", { run_id: RUN, sequence: 99_999 })) as { value: { isError?: boolean; content: { text?: string }[] } };
    expect(bad.value.isError).toBe(true);
    expect(bad.value.content.map((c) => c.text).join("\n")).toMatch(/replay_sequence_out_of_range/);
  });
});
