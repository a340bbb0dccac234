// Every command, discovered from --help, leaves the record its kind promises (docs/architecture.md, "Commands: one route per behaviour"):
// a mutating command goes through its tool, so it leaves one idempotency-ledger record and one
// `new` timeline entry for that tool; a read-only command leaves no ledger record, no mutating
// timeline entry and no other change to the workspace (a read-only tool call still adds its own
// read-only timeline entry, as every tool call does). Setup commands that are not kernel tools are
// listed as exemptions, each with its reason. A new command fails the first test until it is classified here.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { listedSubcommands, runCli } from "../../helpers/cli.js";
import { CHECKPOINT_BIN } from "../../helpers/paths.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";
import { INTEGRITY_POLICY_YAML } from "../../helpers/gates.js";
import { signingKeyFixture } from "../../helpers/signing-key.js";
import { setEnvForFile } from "../../helpers/file-end.js";

// The signing commands sign with this key (the children inherit AOP_SIGNING_KEY); the template commits its public key.
const KEY = signingKeyFixture();
setEnvForFile("AOP_SIGNING_KEY", KEY.file);

type Run =
  | { kind: "mutating"; tool: string; argv: string[]; before?: string[][] }
  | { kind: "read-only"; argv: string[]; before?: string[][]; code?: number; records?: { file: RegExp; why: string } }
  | { kind: "exempt"; argv: string[]; reason: string };

const START = [["run", "start", "--new-run-id", "run:walk"]];

// Keyed by the command path as --help names it.
const COMMANDS: Record<string, Run[]> = {
  init: [{ kind: "exempt", argv: ["init"], reason: "workspace setup before any tool can run (it writes the policy the tools obey); not a kernel tool" }],
  "config check": [{ kind: "read-only", argv: ["config", "check"] }],
  "feature init": [{ kind: "mutating", tool: "feature.init", argv: ["feature", "init", "feat_new"] }],
  "feature list": [{ kind: "read-only", argv: ["feature", "list"] }],
  "feature show": [{ kind: "read-only", argv: ["feature", "show", "feat_a"] }],
  "feature set-status": [{ kind: "mutating", tool: "feature.set_status", argv: ["feature", "set-status", "feat_a", "blocked"] }],
  "run start": [{ kind: "mutating", tool: "run.start", argv: START[0]! }],
  "run heartbeat": [{ kind: "mutating", tool: "run.heartbeat", argv: ["run", "heartbeat"], before: START }],
  "run stop": [{ kind: "mutating", tool: "run.stop", argv: ["run", "stop"], before: START }],
  "run status": [{ kind: "read-only", argv: ["run", "status"] }],
  "session assign": [{ kind: "mutating", tool: "session.assign", argv: ["session", "assign", "--feature-id", "feat_a", "--role", "builder", "--session", "sess-1"], before: START }],
  "checkpoint validate": [{ kind: "read-only", argv: ["checkpoint", "validate"] }],
  "checkpoint status": [{ kind: "read-only", argv: ["checkpoint", "status"] }],
  "checkpoint next": [{ kind: "read-only", argv: ["checkpoint", "next"] }],
  "checkpoint doctor": [{ kind: "read-only", argv: ["checkpoint", "doctor"] }],
  "checkpoint update": [{ kind: "mutating", tool: "checkpoint.update", argv: ["checkpoint", "update", "architect", "--step=review"] }],
  "checkpoint done": [{ kind: "mutating", tool: "checkpoint.done", argv: ["checkpoint", "done", "architect"] }],
  "checkpoint init": [{ kind: "mutating", tool: "checkpoint.init", argv: ["checkpoint", "init"] }],
  "checkpoint list": [{ kind: "read-only", argv: ["checkpoint", "list"] }],
  "checkpoint show": [{ kind: "read-only", argv: ["checkpoint", "show", "architect"] }, { kind: "read-only", argv: ["checkpoint", "show"] }],
  "checkpoint reset": [{ kind: "mutating", tool: "checkpoint.reset", argv: ["checkpoint", "reset", "architect"] }],
  "checkpoint resume": [{ kind: "read-only", argv: ["checkpoint", "resume", "architect"] }],
  "gates run": [{ kind: "mutating", tool: "gates.run", argv: ["gates", "run", "--feature-id", "feat_a", "--mode", "fast"] }],
  "evidence latest": [{ kind: "read-only", argv: ["evidence", "latest", "--feature-id", "feat_a"] }],
  "evidence verify": [
    {
      kind: "read-only",
      argv: ["evidence", "verify", "--all"],
      records: { file: /manifest\.integrity\.json$/, why: "a verification records its time and result in the chain's manifest (last_verified_at, last_verified_result)" },
    },
  ],
  "evidence attest": [{ kind: "mutating", tool: "evidence.attest", argv: ["evidence", "attest", "--feature-id", "feat_a"] }],
  "evidence anchor": [{ kind: "mutating", tool: "evidence.anchor", argv: ["evidence", "anchor", "--feature-id", "feat_a"] }],
  "evidence prove": [{ kind: "read-only", argv: ["evidence", "prove", "--feature-id", "feat_a", "--sequence", "0"] }],
  "evidence reset-chain": [{ kind: "mutating", tool: "evidence.reset_chain", argv: ["evidence", "reset-chain", "--feature-id", "feat_a", "--reason", "the walk starts the chain over"] }],
  "sync push": [{ kind: "exempt", argv: ["sync", "push"], reason: "publishes the records to a git remote as git objects under refs/aop/ (needs a repository with a remote; sync-cli.test.ts); not a kernel tool" }],
  "sync pull": [{ kind: "exempt", argv: ["sync", "pull"], reason: "copies other workspaces' records from a git remote into .aop/remote/ (needs a repository with a remote; sync-cli.test.ts); not a kernel tool" }],
  "sync status": [{ kind: "exempt", argv: ["sync", "status"], reason: "compares local timelines with git refs (needs a repository with a remote; sync-cli.test.ts covers it); not a kernel tool" }],
  "sync prune": [{ kind: "exempt", argv: ["sync", "prune"], reason: "drops local timelines a git remote already holds, like replay retention does (sync-cli.test.ts); not a kernel tool" }],
  "keys init": [{ kind: "exempt", argv: ["keys", "init"], reason: "local setup of the signing key (the private key lives outside the workspace); not a kernel tool" }],
  "keys list": [{ kind: "read-only", argv: ["keys", "list"] }],
  "agent orientation": [{ kind: "read-only", argv: ["agent", "orientation"] }],
  "agent prompt": [{ kind: "read-only", argv: ["agent", "prompt", "resume", "--skill", "architect"] }, { kind: "read-only", argv: ["agent", "prompt", "handoff", "--skill", "architect"] }],
  "export otlp": [
    {
      kind: "read-only",
      argv: ["export", "otlp", "--all", "--dry-run", "--endpoint", "http://127.0.0.1:9/v1/traces"],
      records: { file: /\.aop\/workspace\.json$/, why: "the trace ids a dry run shows are derived from the workspace id, created on first need so that the real export uses the same ones (docs/foundation.md)" },
    },
    { kind: "exempt", argv: ["export", "otlp", "--all"], reason: "sends the timeline to an OpenTelemetry receiver (or an OTLP file) and moves only its own export cursor; not a kernel tool" },
  ],
  handoff: [
    { kind: "exempt", argv: ["handoff", "--force"], reason: "writes the handoff note (.aop/runtime/handoff.json) a session leaves for the next one and publishes it with the records; not a kernel tool" },
  ],
  resume: [{ kind: "read-only", argv: ["resume", "--from", "origin"], code: 1 }],
  report: [
    { kind: "read-only", argv: ["report", "--diff", "run:seed", "run:seed"] },
    { kind: "exempt", argv: ["report"], reason: "writes the HTML page of the timeline (.aop/report.html or --out), a view of the records like `aop tools --write-docs` writes a doc; not a kernel tool" },
  ],
  // --follow reads like --list but never ends on its own; it is left out of the walk.
  search: [
    { kind: "read-only", argv: ["search", "feat_a"], records: { file: /\.aop\/runtime\/search\/[^/]+\.index\.json$/, why: "the search index, a cache of the timeline each search checks and brings up to date (docs/replay.md, \"Search\")" } },
    { kind: "read-only", argv: ["search", "feat_a", "--scan"] },
  ],
  replay: [{ kind: "read-only", argv: ["replay", "--list"] }, { kind: "read-only", argv: ["replay", "--run-id", "run:seed"] }],
  state: [{ kind: "read-only", argv: ["state", "--run-id", "run:seed", "--at", "0"] }],
  doctor: [{ kind: "mutating", tool: "doctor.run", argv: ["doctor"] }],
  // No memory/CURRENT_STATE.md in this workspace: a critical finding, exit 2, still read-only.
  "continuity doctor": [{ kind: "read-only", argv: ["continuity", "doctor"], code: 2 }],
  tools: [
    { kind: "read-only", argv: ["tools"] },
    { kind: "exempt", argv: ["tools", "--write-docs"], reason: "writes the workspace's tools.md from the packaged catalog (a generated doc, like `aop init`); not a kernel tool" },
  ],
  call: [
    { kind: "mutating", tool: "feature.init", argv: ["call", "feature.init", "--args", '{"feature_id":"feat_call"}'] },
    { kind: "read-only", argv: ["call", "feature.list"] },
  ],
  integrate: [
    { kind: "read-only", argv: ["integrate", "claude"] },
    { kind: "exempt", argv: ["integrate", "claude", "--write"], reason: "writes the agent client's own config files (.claude/, .mcp.json), not aop state; not a kernel tool" },
  ],
  "hook claude": [{ kind: "exempt", argv: ["hook", "claude"], reason: "Claude Code's hook handler: it records the agent's own tool calls on the timeline (docs/agents.md); it calls no kernel tool" }],
  "hook codex": [{ kind: "exempt", argv: ["hook", "codex"], reason: "Codex's hook handler: it records the agent's own tool calls on the timeline (docs/agents.md); it calls no kernel tool" }],
  "hook gemini": [{ kind: "exempt", argv: ["hook", "gemini"], reason: "Gemini CLI's hook handler: it records the agent's own tool calls on the timeline (docs/agents.md); it calls no kernel tool" }],
  "hook cursor": [{ kind: "exempt", argv: ["hook", "cursor"], reason: "Cursor's hook handler: it records the agent's own tool calls on the timeline (docs/agents.md); it calls no kernel tool" }],
  "hook opencode": [{ kind: "exempt", argv: ["hook", "opencode"], reason: "opencode's plugin's hook handler: it records the agent's own tool calls on the timeline (docs/agents.md); it calls no kernel tool" }],
  "hook openclaw": [{ kind: "exempt", argv: ["hook", "openclaw"], reason: "OpenClaw's plugin's hook handler: it records the agent's own tool calls on the timeline (docs/agents.md); it calls no kernel tool" }],
  mcp: [{ kind: "exempt", argv: ["mcp"], reason: "the MCP transport: every call it serves goes through the pipeline (the parity suite covers them)" }],
  completion: [{ kind: "read-only", argv: ["completion", "bash"] }],
  schedule: [{ kind: "read-only", argv: ["schedule"] }],
  migrate: [
    { kind: "read-only", argv: ["migrate", "--dry-run"] },
    { kind: "exempt", argv: ["migrate"], reason: "rewrites files older aop versions wrote into the shapes upstream reads, once, with a backup (docs/replay.md); not a kernel tool" },
  ],
};

const commandsIn = (help: string): string[] => listedSubcommands(help).filter((c) => c !== "help");

function leafCommands(): string[] {
  return commandsIn(runCli(["--help"]).stdout).flatMap((top) => {
    const subs = commandsIn(runCli([top, "--help"]).stdout);
    return subs.length === 0 ? [top] : subs.map((s) => `${top} ${s}`);
  });
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile());
}

interface LedgerRecord {
  operation_id: string;
  tool_name: string;
}
interface TimelineLine {
  tool_name: string;
  mutating: boolean;
  idempotency_status: string;
  operation_id: string | null;
  result: string;
}

function ledger(root: string): LedgerRecord[] {
  return filesUnder(path.join(root, ".aop", "runtime", "operation-ledger")).filter((f) => f.endsWith(".json")).map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as LedgerRecord);
}

/** Every timeline line, keyed by file and line number. */
function timeline(root: string): Map<string, TimelineLine> {
  const out = new Map<string, TimelineLine>();
  for (const f of filesUnder(path.join(root, ".aop", "runtime", "replay")).filter((f) => f.endsWith(".timeline.jsonl"))) {
    fs.readFileSync(f, "utf8").split("\n").filter(Boolean).forEach((l, i) => out.set(`${f}:${i}`, JSON.parse(l) as TimelineLine));
  }
  return out;
}

function newLines(before: Map<string, TimelineLine>, after: Map<string, TimelineLine>): TimelineLine[] {
  return [...after].filter(([key]) => !before.has(key)).map(([, line]) => line);
}

/** Every file of the workspace but the timeline's own, with its bytes. */
function state(root: string): Map<string, string> {
  const replay = path.join(root, ".aop", "runtime", "replay");
  return new Map(filesUnder(root).filter((f) => !f.startsWith(replay + path.sep)).map((f) => [path.relative(root, f), fs.readFileSync(f, "base64")]));
}

let template: string;

/** A workspace with a policy, a feature, a passing gate with its evidence, a checkpoint and one recorded run. */
function buildTemplate(): string {
  const root = tempDir("aop-walk-");
  fs.mkdirSync(path.join(root, ".git"));
  const ok = (argv: string[]) => expect(runCli(argv, { cwd: root }), argv.join(" ")).toMatchObject({ code: 0 });
  ok(["init"]);
  writeFile(root, "agentic/orchestrator/policy.yaml", INTEGRITY_POLICY_YAML);
  KEY.commitTo(root);
  writeFile(root, "agentic/orchestrator/gates.yaml", JSON.stringify({ version: 1, default_profile: "default", profiles: { default: { modes: { fast: [{ name: "ok", cmd: [process.execPath, "-e", "0"] }] } } } }));
  ok(["--run-id", "run:seed", "feature", "init", "feat_a"]);
  ok(["gates", "run", "--feature-id", "feat_a", "--mode", "fast"]);
  writeFile(root, ".checkpoints/architect.checkpoint.json", JSON.stringify(minimalCheckpoint("architect", { project_dir: root, next_actions: ["Write the handler", "Review"] }), null, 2));
  // A command that loads gates.yaml or the policy keeps their snapshots once per text (a cache of the
  // load, docs/performance.md), as the commands above kept the policy's: made here, so that what the
  // runs below are checked for is their own writes.
  ok(["config", "check"]);
  expect(fs.existsSync(path.join(root, ".aop", "runtime", "gates.snapshot.json"))).toBe(true);
  return root;
}

function workspace(): string {
  const root = tempDir("aop-walk-");
  fs.cpSync(template, root, { recursive: true });
  return root;
}

describe("every command leaves the record its kind promises", () => {
  beforeAll(() => {
    template = buildTemplate();
  }, 60_000);

  it("every command --help lists is classified here, and nothing else", () => {
    expect(Object.keys(COMMANDS).sort()).toEqual(leafCommands().sort());
    // The checkpoint bin has exactly the subcommands of `aop checkpoint`.
    expect(commandsIn(runCli(["--help"], { bin: CHECKPOINT_BIN }).stdout).sort()).toEqual(commandsIn(runCli(["checkpoint", "--help"]).stdout).sort());
  }, 120_000);

  const runs = Object.entries(COMMANDS).flatMap(([name, list]) => list.map((run) => [`${name}: ${run.argv.join(" ")}`, run] as const));
  // The checkpoint bin's mutating commands take the same tool route as `aop checkpoint`.
  const binRuns = runs.filter(([, run]) => run.kind === "mutating" && run.argv[0] === "checkpoint").map(([label, run]) => [`checkpoint bin ${label}`, { ...run, argv: run.argv.slice(1) }, CHECKPOINT_BIN] as const);

  it.each([...runs.filter(([, run]) => run.kind === "mutating").map(([l, r]) => [l, r, undefined] as const), ...binRuns])("%s: one ledger record and one new timeline entry for its tool", (_label, run, bin) => {
    if (run.kind !== "mutating") throw new Error("not a mutating run");
    const root = workspace();
    for (const argv of run.before ?? []) expect(runCli(argv, { cwd: root }).code).toBe(0);
    const ledgerBefore = ledger(root);
    const timelineBefore = timeline(root);
    const r = runCli(run.argv, { cwd: root, ...(bin ? { bin } : {}) });
    expect(r, r.stderr).toMatchObject({ code: 0 });
    const added = ledger(root).filter((rec) => !ledgerBefore.some((b) => b.operation_id === rec.operation_id));
    expect(added.map((rec) => rec.tool_name)).toEqual([run.tool]);
    const entries = newLines(timelineBefore, timeline(root)).filter((e) => e.mutating);
    expect(entries).toEqual([expect.objectContaining({ tool_name: run.tool, mutating: true, idempotency_status: "new", result: "ok", operation_id: added[0]!.operation_id })]);
  }, 60_000);

  it.each(runs.filter(([, run]) => run.kind === "read-only"))("%s: no ledger record, no mutating timeline entry, no other change", (_label, run) => {
    if (run.kind !== "read-only") throw new Error("not a read-only run");
    const root = workspace();
    for (const argv of run.before ?? []) expect(runCli(argv, { cwd: root }).code).toBe(0);
    const before = state(root);
    const timelineBefore = timeline(root);
    const r = runCli(run.argv, { cwd: root });
    expect(r.code, r.stderr).toBe(run.code ?? 0);
    const unrecorded = (files: Map<string, string>) => new Map([...files].filter(([file]) => !run.records?.file.test(file)));
    expect(unrecorded(state(root))).toEqual(unrecorded(before));
    expect(newLines(timelineBefore, timeline(root)).filter((e) => e.mutating || e.idempotency_status !== "none")).toEqual([]);
  }, 60_000);

  it("each exemption says why", () => {
    for (const [name, list] of Object.entries(COMMANDS)) for (const run of list) if (run.kind === "exempt") expect(run.reason.length, name).toBeGreaterThan(30);
  });
});
