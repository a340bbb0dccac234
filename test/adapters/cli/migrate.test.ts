// Workspaces written by older aop versions (DESIGN §21): timeline lines with extras inside, null sessions
// and fractional latencies, a gates.yaml with its own default_profile. aop reads them, the doctor says how
// to migrate (DRIFT_013, DRIFT_014, info), and `aop migrate` rewrites them once, with a backup, into what
// the upstream orchestrator (agentic-orchestrator 0.2.19) reads — checked with upstream's own replay.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { SEED_KEYS } from "../../helpers/timeline.js";
import { tempDir, tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { UPSTREAM_PACKAGE_DIR } from "../../helpers/upstream-workspace.js";

const UPSTREAM_BIN = path.join(UPSTREAM_PACKAGE_DIR, "dist", "apps", "control-plane", "cli", "aop.js");
const RUN = "adhoc-2026-05-01";
const REPLAY = `.aop/runtime/replay`;

interface Finding {
  id: string;
  severity: string;
  message: string;
}

/** Lines as aop 0.2 wrote them: extras after the 14 keys, a null session, fractional latencies; one torn line. */
function oldWorkspace(): string {
  const root = tempWorkspace();
  const base = { actor_type: "orchestrator", feature_id: null, mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null };
  const line = (sequence: number, extra: object) => JSON.stringify({ ts: "2026-05-01T10:00:00.000Z", sequence, run_id: RUN, session_id: null, ...base, ...extra });
  writeFile(root, `${REPLAY}/${RUN}.timeline.jsonl`, [
    line(0, { tool_name: "feature.list", latency_ms: 1.25 }),
    line(1, { tool_name: "feature.get", session_id: "s-1", latency_ms: 3, transport: "mcp" }),
    "{not json",
    line(2, { tool_name: "Bash", session_id: "s-1", actor_type: "agent", latency_ms: 7.5, agent_id: "a1", agent_type: "Explore" }),
  ].join("\n") + "\n");
  writeFile(root, "agentic/orchestrator/gates.yaml", "# my gates\nversion: 1\ndefault_profile: ci # the usual one\nprofiles:\n  ci:\n    modes:\n      fast:\n        - name: v\n          cmd: [node, --version]\n  other:\n    modes:\n      fast:\n        - name: v\n          cmd: [node, --version]\n");
  writeFile(root, "agentic/orchestrator/policy.yaml", "# my policy\nversion: 1\nlocks:\n  lease_ttl_seconds: 600\n");
  return root;
}

function replayEntries(root: string): Record<string, unknown>[] {
  return runJson<{ entries: Record<string, unknown>[] }>(["replay", "--run-id", RUN], { cwd: root }).json.entries;
}

function upstreamReplay(root: string): number {
  try {
    execFileSync(process.execPath, [UPSTREAM_BIN, "replay", "--run-id", RUN, "--json"], { cwd: root, stdio: "pipe", timeout: 60_000 });
    return 0;
  } catch (err) {
    return (err as { status: number }).status;
  }
}

describe("aop migrate", () => {
  it("old files: aop reads them, the doctor names them, migrate rewrites them once with a backup, upstream then reads them", () => {
    const root = oldWorkspace();
    const timeline = path.join(root, REPLAY, `${RUN}.timeline.jsonl`);
    const original = fs.readFileSync(timeline, "utf8");
    const gatesOriginal = fs.readFileSync(path.join(root, "agentic/orchestrator/gates.yaml"), "utf8");
    const before = replayEntries(root);
    expect(before.map((e) => [e.sequence, e.session_id, e.latency_ms, e.transport, e.agent_id])).toEqual([[0, RUN, 1, undefined, undefined], [1, "s-1", 3, "mcp", undefined], [2, "s-1", 8, undefined, "a1"]]);
    expect(upstreamReplay(root)).not.toBe(0);

    const doctor = runJson<{ findings: Finding[] }>(["doctor"], { cwd: root }).json.findings.filter((f) => f.id === "DRIFT_013_TIMELINE_OLD_LINES" || f.id === "DRIFT_014_CONFIG_UPSTREAM_KEYS");
    expect(doctor.map((f) => [f.id, f.severity])).toEqual([["DRIFT_013_TIMELINE_OLD_LINES", "info"], ["DRIFT_014_CONFIG_UPSTREAM_KEYS", "info"]]);
    expect(doctor[0]!.message).toContain(`run ${RUN}: 3 lines in aop's older shape`);
    expect(doctor[1]!.message).toContain("gates.yaml sets default_profile (ci)");

    const dry = runJson<{ dry_run: boolean; runs: { run_id: string; old_lines: number; extras_moved: number; backups: string[] }[]; config: { default_profile: string } }>(["migrate", "--dry-run"], { cwd: root, env: { AOP_NOW: "2026-06-01T00:00:00.000Z" } });
    expect(dry.code).toBe(0);
    expect(dry.json).toMatchObject({ dry_run: true, runs: [{ run_id: RUN, old_lines: 3, extras_moved: 2, backups: [] }], config: { default_profile: "ci", changed: ["agentic/orchestrator/gates.yaml", "agentic/orchestrator/policy.yaml"] } });
    expect(fs.readFileSync(timeline, "utf8")).toBe(original);
    expect(fs.existsSync(path.join(root, REPLAY, "backup"))).toBe(false);

    const done = runJson<{ runs: { backups: string[] }[]; config: { backups: string[] } }>(["migrate"], { cwd: root, env: { AOP_NOW: "2026-06-01T00:00:00.000Z" } });
    expect(done.code).toBe(0);
    const backupDir = `${REPLAY}/backup/2026-06-01T00-00-00-000Z`;
    expect(done.json.runs[0]!.backups).toEqual([`${backupDir}/${RUN}.timeline.jsonl`]);
    expect(fs.readFileSync(path.join(root, backupDir, `${RUN}.timeline.jsonl`), "utf8")).toBe(original);
    expect(fs.readFileSync(path.join(root, backupDir, "gates.yaml"), "utf8")).toBe(gatesOriginal);

    // The seed's lines (the unparseable one kept as it was), extras in the sidecar, the same entries read back.
    const lines = fs.readFileSync(timeline, "utf8").split("\n").filter((l) => l !== "");
    expect(lines[2]).toBe("{not json");
    for (const l of [lines[0]!, lines[1]!, lines[3]!]) expect(Object.keys(JSON.parse(l))).toEqual(SEED_KEYS);
    expect(fs.readFileSync(path.join(root, REPLAY, `${RUN}.ext.jsonl`), "utf8")).toBe('{"sequence":1,"transport":"mcp"}\n{"sequence":2,"agent_id":"a1","agent_type":"Explore"}\n');
    expect(replayEntries(root)).toEqual(before);
    expect(upstreamReplay(root)).toBe(0);

    // gates.yaml without its default_profile (comments kept), policy.yaml naming it; aop still picks `ci`.
    const gates = fs.readFileSync(path.join(root, "agentic/orchestrator/gates.yaml"), "utf8");
    expect(gates).not.toContain("default_profile");
    expect(gates).toContain("# my gates");
    expect(fs.readFileSync(path.join(root, "agentic/orchestrator/policy.yaml"), "utf8")).toMatch(/# my policy[\s\S]*gate_selection:\n {2}default_profile: ci\n/);
    expect(runCli(["config", "check"], { cwd: root }).code).toBe(0);
    expect(runCli(["feature", "init", "f"], { cwd: root }).code).toBe(0);
    const gate = runJson<{ profile: string }>(["gates", "run", "--feature-id", "f", "--mode", "fast"], { cwd: root });
    expect(gate.json.profile).toBe("ci");

    const after = runJson<{ findings: Finding[] }>(["doctor"], { cwd: root }).json.findings.map((f) => f.id);
    expect(after).not.toContain("DRIFT_013_TIMELINE_OLD_LINES");
    expect(after).not.toContain("DRIFT_014_CONFIG_UPSTREAM_KEYS");

    // Once: a second run finds nothing and writes no backup.
    const again = runCli(["migrate"], { cwd: root, env: { AOP_NOW: "2026-06-02T00:00:00.000Z" } });
    expect(again.stdout).toBe("nothing to migrate: every timeline, gates.yaml and policy.yaml are in the shapes the upstream orchestrator reads\n");
    expect(fs.readdirSync(path.join(root, REPLAY, "backup"))).toEqual(["2026-06-01T00-00-00-000Z"]);
  }, 120_000);

  it("aop-only keys in policy.yaml and aop.yaml both: merged as the loader reads them, aop.yaml's own values kept, emptied sections removed", async () => {
    const root = tempWorkspace();
    const policyText = "# my policy\nversion: 1\nlocks:\n  lease_ttl_seconds: 600\nobservability:\n  export:\n    otlp:\n      endpoint: http://collector:4318/v1/traces # ours\nhooks:\n  claude:\n    stop_reminder: off\n";
    writeFile(root, "agentic/orchestrator/policy.yaml", policyText);
    writeFile(root, "agentic/orchestrator/aop.yaml", "# mine\nhooks:\n  claude:\n    stop_reminder: block\nobservability:\n  export:\n    otlp:\n      enabled: true\n");
    const { loadPolicy } = await import("../../../src/config/policy-loader.js");
    const { WorkspaceLayout } = await import("../../../src/store/layout.js");
    const before = await loadPolicy(new WorkspaceLayout(root));
    expect(before.observability.export.otlp).toMatchObject({ enabled: true, endpoint: "http://collector:4318/v1/traces" });
    expect(before.hooks.claude.stop_reminder).toBe("block");
    const r = runCli(["migrate"], { cwd: root, env: { AOP_NOW: "2026-06-01T00:00:00.000Z" } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("moved policy.yaml's aop-only keys (observability.export, hooks) to agentic/orchestrator/aop.yaml; aop.yaml already set hooks.claude.stop_reminder, which it keeps (backup .aop/runtime/replay/backup/2026-06-01T00-00-00-000Z/policy.yaml, .aop/runtime/replay/backup/2026-06-01T00-00-00-000Z/aop.yaml)\n");
    expect(fs.readFileSync(path.join(root, "agentic/orchestrator/policy.yaml"), "utf8")).toBe("# my policy\nversion: 1\nlocks:\n  lease_ttl_seconds: 600\n");
    expect(fs.readFileSync(path.join(root, "agentic/orchestrator/aop.yaml"), "utf8")).toBe("# mine\nhooks:\n  claude:\n    stop_reminder: block\nobservability:\n  export:\n    otlp:\n      enabled: true\n      endpoint: http://collector:4318/v1/traces # ours\n");
    expect(await loadPolicy(new WorkspaceLayout(root))).toEqual(before);
    expect(runCli(["migrate"], { cwd: root }).stdout).toMatch(/^nothing to migrate/);
  });

  it("a run the new writer continued: its sidecar lines are kept and merged in sequence order", () => {
    const root = oldWorkspace();
    const ext = path.join(root, REPLAY, `${RUN}.ext.jsonl`);
    // A new-shape line appended after the old ones, with its extras already in the sidecar.
    const fresh = { ts: "2026-05-01T10:00:01.000Z", sequence: 3, run_id: RUN, session_id: "s-1", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: "toolu_3", idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 4 };
    fs.appendFileSync(path.join(root, REPLAY, `${RUN}.timeline.jsonl`), JSON.stringify(fresh) + "\n");
    fs.writeFileSync(ext, '{"sequence":3,"tool_use_id":"toolu_3","client":"claude"}\n');
    const before = replayEntries(root);
    expect(runCli(["migrate"], { cwd: root }).code).toBe(0);
    expect(fs.readFileSync(ext, "utf8").trimEnd().split("\n").map((l) => (JSON.parse(l) as { sequence: number }).sequence)).toEqual([1, 2, 3]);
    expect(replayEntries(root)).toEqual(before);
    expect(before[3]).toMatchObject({ ext: { tool_use_id: "toolu_3", client: "claude" } });
  });

  it("refuses a timeline that is a link out of the workspace, and changes nothing", () => {
    const root = oldWorkspace();
    const outside = path.join(tempDir(), "elsewhere.jsonl");
    const file = path.join(root, REPLAY, `${RUN}.timeline.jsonl`);
    fs.renameSync(file, outside);
    fs.symlinkSync(outside, file);
    const before = fs.readFileSync(outside, "utf8");
    const r = runJson<{ ok: boolean; error: { code: string } }>(["migrate"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe("path_outside_workspace");
    expect(fs.readFileSync(outside, "utf8")).toBe(before);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
  });
});
