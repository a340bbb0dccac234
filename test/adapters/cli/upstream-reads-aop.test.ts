// The other direction of test/adapters/cli/upstream-workspace.test.ts (DESIGN §21): the upstream
// orchestrator (agentic-orchestrator 0.2.19, a devDependency) reads what aop writes. aop writes a
// workspace through every path — `aop init`, CLI calls in-process and over MCP (stdio), gate runs, the
// doctor, and `aop hook claude` with payloads as Claude Code sends them — then upstream's own `aop replay`
// reads every run, every line passes upstream's replay output schema, and gates.yaml / policy.yaml pass
// upstream's configuration loader. Upstream 0.2.19 has no doctor command (its catalog names doctor.run,
// which it does not implement), so its configuration loader and schemas stand for it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { claudePayload } from "../../helpers/claude-payloads.js";
import { SEED_KEYS } from "../../helpers/timeline.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { UPSTREAM_PACKAGE_DIR } from "../../helpers/upstream-workspace.js";
import { loadPolicy } from "../../../src/config/policy-loader.js";
import { aopOnlyPolicyKeys, AOP_ONLY_POLICY_KEYS } from "../../../src/config/upstream-shape.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";

const DIST = path.join(UPSTREAM_PACKAGE_DIR, "dist", "apps", "control-plane");
const UPSTREAM_BIN = path.join(DIST, "cli", "aop.js");
const OUTPUT_SCHEMA = path.join(UPSTREAM_PACKAGE_DIR, "agentic", "orchestrator", "tools", "schemas", "output", "replay.timeline_get.output.schema.json");

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the upstream package ships no types for its deep modules
type Any = any;

function upstreamReplay(root: string, runId: string): { code: number; out: Any; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [UPSTREAM_BIN, "replay", "--run-id", runId, "--json"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
    return { code: 0, out: JSON.parse(stdout), stderr: "" };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: null, stderr: `${e.stdout}\n${e.stderr}` };
  }
}

/** Upstream's own configuration loaders on the workspace's agentic/orchestrator/ files. */
async function upstreamConfig(root: string): Promise<{ gates: { valid: boolean; errors: unknown[] }; policy: string }> {
  const { SchemaRegistry, loadAndValidateYaml } = await import(pathToFileURL(path.join(DIST, "core", "schemas.js")).href);
  const { loadComposedPolicy } = await import(pathToFileURL(path.join(DIST, "application", "services", "policy-loader-service.js")).href);
  const registry: Any = new SchemaRegistry(root);
  const gates = await loadAndValidateYaml(registry, "gates.schema.json", path.join(root, "agentic", "orchestrator", "gates.yaml"));
  let policy = "ok";
  try {
    await loadComposedPolicy(root, path.join(root, "agentic", "orchestrator", "policy.yaml"), registry);
  } catch (err) {
    policy = (err as Error).message;
  }
  return { gates: gates.validation, policy };
}

function runIds(root: string): string[] {
  return fs.readdirSync(path.join(root, ".aop", "runtime", "replay")).filter((f) => f.endsWith(".timeline.jsonl")).map((f) => f.slice(0, -".timeline.jsonl".length)).sort();
}

function lines(root: string, runId: string): Record<string, unknown>[] {
  return fs.readFileSync(path.join(root, ".aop", "runtime", "replay", `${runId}.timeline.jsonl`), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("upstream (agentic-orchestrator 0.2.19) reads a workspace aop wrote", () => {
  let root: string;
  const sessionId = "127b8c57-0e46-4957-b00f-a3c38a6dd29a"; // the captured payloads' session
  beforeAll(() => {
    root = fs.realpathSync(tempWorkspace());
    execFileSync("git", ["init", "-q", "."], { cwd: root });
    const ok = (args: string[], input?: string, env: Record<string, string | undefined> = {}) => {
      const r = runCli(args, { cwd: root, input, env });
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
    };
    ok(["init"]);
    // CLI calls in-process and over MCP (stdio), a failing call, gate runs both ways, the doctor.
    ok(["feature", "init", "billing"]);
    ok(["feature", "list"]);
    ok(["feature", "show", "billing", "--transport", "mcp"]);
    expect(runCli(["feature", "show", "no_such"], { cwd: root }).code).toBe(1);
    ok(["gates", "run", "--feature-id", "billing", "--mode", "fast"]);
    ok(["gates", "run", "--feature-id", "billing", "--mode", "fast", "--transport", "mcp"]);
    ok(["doctor"]);
    ok(["doctor", "--transport", "mcp"]);
    // Claude Code's hook: markers, tool calls (one inside a subagent, one failed), compaction, stop.
    for (const name of ["SessionStart", "UserPromptSubmit", "PostToolUse", "SubagentStart", "PostToolUse-in-subagent", "SubagentStop", "PostToolUseFailure", "PreCompact", "Stop", "SessionEnd"]) {
      ok(["hook", "claude"], JSON.stringify(claudePayload(name, root, { session_id: sessionId })), { CLAUDE_PROJECT_DIR: undefined });
    }
  }, 180_000);

  it("every line aop wrote is the seed's: its 14 keys in order, a string session, a whole latency", () => {
    const runs = runIds(root);
    expect(runs).toContain(`claude-${sessionId}`);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    for (const runId of runs) {
      for (const line of lines(root, runId)) {
        expect(Object.keys(line)).toEqual(SEED_KEYS);
        expect(typeof line.session_id).toBe("string");
        expect(Number.isInteger(line.latency_ms) && (line.latency_ms as number) >= 0).toBe(true);
      }
    }
  });

  it("upstream's `aop replay --json` reads every run, entry for entry, and each entry passes its output schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(fs.readFileSync(OUTPUT_SCHEMA, "utf8")));
    for (const runId of runIds(root)) {
      const theirs = upstreamReplay(root, runId);
      expect(theirs.code, theirs.stderr).toBe(0);
      expect(theirs.out.entries).toEqual(lines(root, runId));
      expect(validate(theirs.out), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it("aop keeps what the lines do not hold in the sidecar, and its own replay joins it back", () => {
    const kernel = runIds(root).find((r) => r.startsWith("adhoc-"))!;
    const ours = runJson<{ entries: Record<string, unknown>[] }>(["replay", "--run-id", kernel, "--limit", "1000"], { cwd: root }).json.entries;
    expect(ours.filter((e) => e.transport === "mcp").map((e) => e.tool_name)).toEqual(["feature.get", "gates.run", "doctor.run"]);
    const session = runJson<{ entries: Record<string, unknown>[] }>(["replay", "--run-id", `claude-${sessionId}`], { cwd: root }).json.entries;
    expect(session.filter((e) => String(e.tool_name).startsWith("session.")).map((e) => [e.tool_name, e.marker])).toEqual([
      ["session.start", "SessionStart:startup"], ["session.prompt", "UserPromptSubmit"], ["session.subagent_start", "SubagentStart"], ["session.subagent_stop", "SubagentStop"],
      ["session.compact", "PreCompact:manual"], ["session.stop", "Stop"], ["session.end", "SessionEnd:other"],
    ]);
    const inSubagent = session.find((e) => e.tool_name === "Bash" && e.agent_id !== undefined)!;
    expect(inSubagent).toMatchObject({ agent_id: "ad750cec60a8b0d08", agent_type: "general-purpose", ext: { tool_use_id: "toolu_fake_1796119682734_107", client: "claude" } });
  });

  it("gates.yaml and policy.yaml as `aop init` wrote them pass upstream's configuration loader", async () => {
    const config = await upstreamConfig(root);
    expect(config.gates).toEqual({ valid: true, errors: [] });
    expect(config.policy).toBe("ok");
  });

  it("the check can fail: upstream refuses an old-shape line and aop's old gates.yaml", async () => {
    const runId = runIds(root).find((r) => r.startsWith("adhoc-"))!;
    const file = path.join(root, ".aop", "runtime", "replay", `${runId}.timeline.jsonl`);
    const before = fs.readFileSync(file);
    const gatesFile = path.join(root, "agentic", "orchestrator", "gates.yaml");
    const gatesBefore = fs.readFileSync(gatesFile);
    try {
      const last = lines(root, runId).at(-1)!;
      fs.appendFileSync(file, JSON.stringify({ ...last, sequence: (last.sequence as number) + 1, session_id: null, latency_ms: 1.5, transport: "mcp" }) + "\n");
      expect(upstreamReplay(root, runId).code).not.toBe(0);
      fs.writeFileSync(gatesFile, `default_profile: default\n${gatesBefore.toString("utf8")}`);
      expect((await upstreamConfig(root)).gates.valid).toBe(false);
    } finally {
      fs.writeFileSync(file, before);
      fs.writeFileSync(gatesFile, gatesBefore);
    }
  });
});

// Every key aop has and upstream's policy schema refuses, set to a value that is not its default.
const EVERY_AOP_KEY = `observability:
  evidence_integrity:
    attest: true          # sign every gate run
    anchor_after_gate: true
    anchor_git: true
  export:
    otlp:
      enabled: true
      endpoint: http://localhost:4318/v1/traces
      protocol: http/json
      headers_env: OTLP_HEADERS
idempotency:
  retention:
    max_age_days: 7
    max_records: 1000
checkpoints:
  stale_days:
    in_progress: 2
    blocked: 1
    complete: 5
hooks:
  claude:
    stop_reminder: block
`;

describe("aop's own policy keys: in aop.yaml upstream never reads them; in an older policy.yaml `aop migrate` moves them there", () => {
  const settings = async (root: string) => {
    const policy = await loadPolicy(new WorkspaceLayout(root));
    return { integrity: policy.observability.evidence_integrity, export: policy.observability.export, idempotency: policy.idempotency, checkpoints: policy.checkpoints, hooks: policy.hooks, locks: policy.locks };
  };
  const expected = {
    integrity: { enabled: true, verify_on_read: false, algorithm_version: 1, attest: true, anchor_after_gate: true, anchor_git: true },
    export: { otlp: { enabled: true, endpoint: "http://localhost:4318/v1/traces", protocol: "http/json", headers_env: "OTLP_HEADERS" } },
    idempotency: { retention: { max_age_days: 7, max_records: 1000 } },
    checkpoints: { stale_days: { in_progress: 2, blocked: 1, complete: 5 } },
    hooks: { claude: { stop_reminder: "block" } },
    locks: { lease_ttl_seconds: 900 },
  };

  it("the fixture sets every aop-only key", async () => {
    const { parse } = await import("yaml");
    expect(aopOnlyPolicyKeys(parse(EVERY_AOP_KEY))).toEqual([...AOP_ONLY_POLICY_KEYS]);
  });

  it("a workspace with every aop-only key set in aop.yaml passes upstream's loaders, and aop reads each key", async () => {
    const root = fs.realpathSync(tempWorkspace());
    expect(runCli(["init"], { cwd: root }).code).toBe(0);
    writeFile(root, "agentic/orchestrator/aop.yaml", `version: 1\n${EVERY_AOP_KEY}`);
    expect(runCli(["config", "check"], { cwd: root }).code).toBe(0);
    expect(await settings(root)).toEqual(expected);
    const config = await upstreamConfig(root);
    expect(config.gates).toEqual({ valid: true, errors: [] });
    expect(config.policy).toBe("ok");
  });

  it("the same keys in an older policy.yaml: upstream refuses it, aop reads them; `aop migrate` moves them (once, with a backup) and upstream reads it again", async () => {
    const root = fs.realpathSync(tempWorkspace());
    expect(runCli(["init"], { cwd: root }).code).toBe(0);
    fs.rmSync(path.join(root, "agentic", "orchestrator", "aop.yaml"));
    const policyFile = path.join(root, "agentic", "orchestrator", "policy.yaml");
    // The template's policy.yaml with every aop-only key set in it, as older aop versions kept them.
    const yaml = await import("yaml");
    const doc = yaml.parseDocument(fs.readFileSync(policyFile, "utf8"));
    const extra = yaml.parseDocument(EVERY_AOP_KEY);
    for (const key of AOP_ONLY_POLICY_KEYS) doc.setIn(key.split("."), extra.getIn(key.split("."), true));
    fs.writeFileSync(policyFile, doc.toString());
    expect(aopOnlyPolicyKeys(yaml.parse(fs.readFileSync(policyFile, "utf8")))).toEqual([...AOP_ONLY_POLICY_KEYS]);
    expect((await upstreamConfig(root)).policy).not.toBe("ok");
    expect(await settings(root)).toEqual(expected);
    const drift = runJson<{ findings: { id: string; message: string; remediation: string }[] }>(["doctor"], { cwd: root }).json.findings.find((f) => f.id === "DRIFT_014_CONFIG_UPSTREAM_KEYS");
    expect(drift?.remediation).toContain("aop migrate");

    const before = fs.readFileSync(policyFile, "utf8");
    const dry = runJson<{ config: { aop_keys: string[]; changed: string[] } }>(["migrate", "--dry-run"], { cwd: root });
    expect(dry.json.config).toMatchObject({ aop_keys: [...AOP_ONLY_POLICY_KEYS], changed: ["agentic/orchestrator/policy.yaml", "agentic/orchestrator/aop.yaml"] });
    expect(fs.readFileSync(policyFile, "utf8")).toBe(before);
    expect(fs.existsSync(path.join(root, "agentic", "orchestrator", "aop.yaml"))).toBe(false);

    const done = runJson<{ config: { backups: string[] } }>(["migrate"], { cwd: root, env: { AOP_NOW: "2026-06-01T00:00:00.000Z" } });
    expect(done.code).toBe(0);
    expect(done.json.config.backups).toEqual([".aop/runtime/replay/backup/2026-06-01T00-00-00-000Z/policy.yaml"]);
    expect(fs.readFileSync(path.join(root, ".aop/runtime/replay/backup/2026-06-01T00-00-00-000Z/policy.yaml"), "utf8")).toBe(before);
    expect(fs.readFileSync(path.join(root, "agentic", "orchestrator", "aop.yaml"), "utf8")).toContain("attest: true # sign every gate run");
    expect((await upstreamConfig(root)).policy).toBe("ok");
    expect(await settings(root)).toEqual(expected);
    expect(runJson<{ findings: { id: string }[] }>(["doctor"], { cwd: root }).json.findings.map((f) => f.id)).not.toContain("DRIFT_014_CONFIG_UPSTREAM_KEYS");
    const again = runCli(["migrate"], { cwd: root });
    expect(again.stdout).toBe("nothing to migrate: every timeline, gates.yaml and policy.yaml are in the shapes the upstream orchestrator reads\n");
  });
});
