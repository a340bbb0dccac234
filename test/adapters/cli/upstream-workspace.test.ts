// aop on workspaces the upstream orchestrator wrote: one made by the orchestrator itself (the npm
// package agentic-orchestrator, a devDependency), and one built by hand from the shapes of its files
// (lease, index, five-field meta, ledger). `aop doctor --json`, `aop run status` and `aop replay` must
// diagnose and read them exactly, and leave every file of the orchestrator as it was.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { makeUpstreamWorkspace, type UpstreamWorkspace } from "../../helpers/upstream-workspace.js";

interface Finding {
  id: string;
  severity: string;
  message: string;
  refs: string[];
}
interface Report {
  ok: boolean;
  summary: Record<string, number>;
  findings: Finding[];
}
interface Page {
  run_id: string;
  entries: { sequence: number }[];
  total_matched: number;
  next_from_sequence: number | null;
  skipped_lines: number;
}

/** What the doctor says about an upstream workspace without aop configuration of its own. */
const UPSTREAM_CONFIG_FINDINGS = [
  ["DRIFT_001_POLICY_SCHEMA_INVALID", "info", "config/agentic/orchestrator/policy.yaml is the upstream orchestrator's configuration and is not read by aop; without agentic/orchestrator/policy.yaml aop runs on its bundled policy defaults"],
  ["DRIFT_002_GATES_SCHEMA_INVALID", "info", "config/agentic/orchestrator/gates.yaml is the upstream orchestrator's configuration and is not read by aop; without agentic/orchestrator/gates.yaml aop has no gate profiles to run"],
  ["DRIFT_003_TOOL_CONTRACT_DRIFT", "info", "agentic/orchestrator/tools.md lists the upstream orchestrator's tools (it rewrites the file on every start), not aop's"],
];

function findings(report: Report): string[][] {
  return report.findings.map((f) => [f.id, f.severity, f.message]);
}

/** sha256 of every file the orchestrator wrote under .aop/ (aop's own runtime files excluded). */
function upstreamFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      const rel = path.relative(root, file);
      if (entry.isDirectory()) walk(file);
      else if (!/adhoc-|\/doctor\/|operation-ledger\/[0-9a-f]{2}\//.test(rel)) out[rel] = createHash("sha256").update(fs.readFileSync(file)).digest("hex");
    }
  };
  walk(path.join(root, ".aop"));
  return out;
}

function sessionsOf(lease: { feature_sessions: Record<string, Record<string, string>> }, featureId: string): string {
  const s = lease.feature_sessions[featureId]!;
  return `planner → ${s.planner_session_id}, builder → ${s.builder_session_id}, qa → ${s.qa_session_id}`;
}

// The steps of one workspace's life (held lease, then released): they run in order, even under
// --sequence.shuffle.
describe("a workspace the upstream orchestrator (agentic-orchestrator 0.2.19) wrote itself", { shuffle: false }, () => {
  let ws: UpstreamWorkspace;
  let lease: { run_id: string; lease_expires_at: string; feature_sessions: Record<string, Record<string, string>> };
  let before: Record<string, string>;
  beforeAll(async () => {
    ws = await makeUpstreamWorkspace();
    lease = JSON.parse(fs.readFileSync(path.join(ws.root, ws.leaseRef), "utf8"));
    before = upstreamFiles(ws.root);
  }, 120_000);

  it("its files are where the notes say: a lease under its instance folder, a five-field meta, its own ledger", () => {
    expect(lease.run_id).toBe(ws.runId);
    expect(Object.keys(lease.feature_sessions).sort()).toEqual(["ghost_feature", "hello"]);
    const meta = JSON.parse(fs.readFileSync(path.join(ws.root, ".aop", "runtime", "replay", `${ws.runId}.meta.json`), "utf8"));
    expect(Object.keys(meta).sort()).toEqual(["entry_count", "last_entry_at", "run_id", "sequence_head", "started_at"]);
    expect(fs.existsSync(path.join(ws.root, ".aop", "runtime", "operation-ledger", `${ws.runId}.json`))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(ws.root, ".aop", "features", "index.json"), "utf8"))).toMatchObject({ active: ["hello"], runtime_sessions: { run_id: "none" } });
  });

  it("aop doctor --json: the orphan session of the held lease, nothing else but notices", () => {
    const { code, json } = runJson<Report>(["doctor"], { cwd: ws.root });
    expect(code).toBe(0);
    expect(findings(json)).toEqual([
      ...UPSTREAM_CONFIG_FINDINGS,
      ["DRIFT_005_RUNTIME_SESSION_ORPHANS", "warning", `run ${ws.runId} maps sessions (${sessionsOf(lease, "ghost_feature")}) to feature ghost_feature, which is not in the index`],
    ]);
    expect(json.findings.find((f) => f.id.startsWith("DRIFT_005"))!.refs).toEqual([ws.leaseRef]);
    expect(json).toMatchObject({ ok: true, summary: { critical: 0, warning: 1, info: 3 } });
  });

  it("aop run status shows its lease, its owner and every mapped session", () => {
    const { json } = runJson<{ state: string; lease: Record<string, unknown>; expires_in_seconds: number; lease_file: string }>(["run", "status"], { cwd: ws.root });
    expect(json).toMatchObject({ state: "active", lease_file: ws.leaseRef, lease: { run_id: ws.runId, owner: ws.instanceId, instance_id: ws.instanceId, ttl_seconds: 300, released_at: null, lease_expires_at: lease.lease_expires_at } });
    expect(json.lease.sessions).toEqual(Object.fromEntries(Object.entries(lease.feature_sessions).map(([f, s]) => [f, { planner: s.planner_session_id, builder: s.builder_session_id, qa: s.qa_session_id }])));
    expect(json.expires_in_seconds).toBeGreaterThan(0);
    expect(json.expires_in_seconds).toBeLessThanOrEqual(300);
    const human = runCli(["run", "status"], { cwd: ws.root });
    expect(human.stdout.split("\n")[0]).toMatch(new RegExp(`^run ${ws.runId}  active  owner ${ws.instanceId}, expires in \\d+s$`));
    expect(human.stdout).toContain(`  lease file ${ws.leaseRef} (written by the upstream orchestrator)\n`);
    expect(human.stdout).toContain(`  ghost_feature  qa → ${lease.feature_sessions.ghost_feature!.qa_session_id}\n`);
  });

  it("aop replay reads its timeline exactly as its own CLI does", () => {
    const theirs = JSON.parse(ws.upstreamCli("replay", "--run-id", ws.runId, "--json")) as { entries: unknown[] };
    expect(theirs.entries).toHaveLength(8);
    const ours = runJson<Page>(["replay", "--run-id", ws.runId], { cwd: ws.root }).json;
    expect(ours).toEqual({ run_id: ws.runId, entries: theirs.entries, total_matched: 8, next_from_sequence: null, skipped_lines: 0 });
    const page = runJson<Page>(["replay", "--run-id", ws.runId, "--from-sequence", "3", "--limit", "2"], { cwd: ws.root }).json;
    expect(page).toEqual({ run_id: ws.runId, entries: theirs.entries.slice(3, 5), total_matched: 5, next_from_sequence: 5, skipped_lines: 0 });
    const errors = runJson<Page>(["replay", "--run-id", ws.runId, "--result", "error"], { cwd: ws.root }).json;
    expect(errors.entries.map((e) => (e as unknown as { error_code: string }).error_code).sort()).toEqual(["forbidden_tool_for_role", "invalid_argument", "invalid_argument", "operation_id_reuse_mismatch"]);
  });

  it("once it releases the lease (expiry at the epoch): released, not stale, and its mapping is history", async () => {
    await ws.release();
    const released = JSON.parse(fs.readFileSync(path.join(ws.root, ws.leaseRef), "utf8"));
    expect(released).toMatchObject({ run_id: ws.runId, lease_expires_at: "1970-01-01T00:00:00.000Z", feature_sessions: { ghost_feature: expect.any(Object) } });
    expect(findings(runJson<Report>(["doctor"], { cwd: ws.root }).json)).toEqual([...UPSTREAM_CONFIG_FINDINGS]);
    expect(runJson<{ state: string; lease_file: string }>(["run", "status"], { cwd: ws.root }).json).toMatchObject({ state: "released", lease_file: ws.leaseRef });
    before = upstreamFiles(ws.root);
  });

  it("aop changed none of the orchestrator's files", () => {
    runCli(["doctor"], { cwd: ws.root });
    runCli(["run", "status"], { cwd: ws.root });
    runCli(["replay", "--run-id", ws.runId], { cwd: ws.root });
    expect(upstreamFiles(ws.root)).toEqual(before);
  });
});

const NOW = "2026-06-01T12:00:00.000Z";
const RUN = "run:aea43f27-0800-466c-bf83-f671f472f0b3";
const INSTANCE = "3f26e510b8a2";

/** The upstream shapes (docs/compatibility.md), written by hand: lease, index v3, five-field meta, ledger, config. */
function handBuilt(lease: { expires: string }): string {
  const root = tempWorkspace();
  const sessions = (id: string) => ({ planner_session_id: `planner-${id}-1`, builder_session_id: `builder-${id}-1`, qa_session_id: `qa-${id}-1` });
  writeFile(root, `.aop/runtime/${INSTANCE}/run-lease.json`, JSON.stringify({
    run_id: RUN, orchestrator_session_id: "orchestrator-global-1", reconciler_session_id: "unknown", reconciler_active_feature_id: null, reconciler_queue: [],
    provider: "custom", model: "local-default", provider_config_ref_hash: "140bedbf9c3f6d56a9846d2ba7088798683f4da0c248231336e6a05679e4fdfe", owner_instance_id: INSTANCE,
    lease_id: "5829d4eb-1689-40ef-9f7e-4aebb57ba791", started_at: "2026-06-01T11:58:00.000Z", last_heartbeat_at: "2026-06-01T11:59:00.000Z", lease_expires_at: lease.expires, orchestrator_epoch: 0,
    feature_sessions: { hello: sessions("hello"), ghost_feature: sessions("ghost_feature") },
  }, null, 2) + "\n");
  writeFile(root, ".aop/features/index.json", JSON.stringify({
    version: 3, active: ["hello"], blocked: [], merged: ["shipped"], locks: {}, lock_leases: {}, blocked_queue: [], collision_records: [], collision_overrides: [], dep_blocked: [], updated_at: "2026-06-01T11:00:00.000Z",
    runtime_sessions: { run_id: "none", owner_instance_id: "none", lease_id: "none", lease_expires_at: "2026-06-01T10:00:00.000Z", orchestrator_epoch: 0, feature_sessions: {} },
  }, null, 2) + "\n");
  for (const id of ["hello", "shipped"]) writeFile(root, `.aop/features/${id}/state.md`, `---\nfeature_id: ${id}\nversion: 13\nstatus: ${id === "hello" ? "blocked" : "merged"}\nlast_updated: 2026-06-01T11:00:00.000Z\n---\n## Activity\n\nInitialized feature.\n`);
  const entry = (sequence: number, ts: string, extra: object = {}) => JSON.stringify({ ts, sequence, run_id: RUN, session_id: "orchestrator-global-1", actor_type: "orchestrator", feature_id: "hello", tool_name: "feature.state_get", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 20, ...extra });
  // Sequences are gap-free; ts is not in sequence order (upstream allocates sequences in lock order).
  writeFile(root, `.aop/runtime/replay/${RUN}.timeline.jsonl`, [
    entry(0, "2026-06-01T11:59:10.793Z"),
    entry(1, "2026-06-01T11:59:10.846Z", { tool_name: "feature.log_append", mutating: true, operation_id: "feature_log_append__hello__1", idempotency_status: "new", request_hash: "e1".repeat(32) }),
    entry(2, "2026-06-01T11:59:10.825Z", { tool_name: "feature.log_append", mutating: true, operation_id: "feature_log_append__hello__1", idempotency_status: "replay", request_hash: "e1".repeat(32) }),
    entry(3, "2026-06-01T11:59:10.828Z", { tool_name: "no.such_tool", feature_id: null, result: "error", error_code: "invalid_argument" }),
  ].join("\n") + "\n");
  writeFile(root, `.aop/runtime/replay/${RUN}.meta.json`, JSON.stringify({ run_id: RUN, sequence_head: 3, entry_count: 4, started_at: "2026-06-01T11:59:10.800Z", last_entry_at: "2026-06-01T11:59:11.041Z" }, null, 2));
  writeFile(root, `.aop/runtime/operation-ledger/${RUN}.json`, JSON.stringify({ run_id: RUN, updated_at: "2026-06-01T11:59:10.846Z", operations: { feature_log_append__hello__1: { operation_id: "feature_log_append__hello__1", tool_name: "feature.log_append", request_hash: "e1".repeat(32), response: { ok: true, data: {} }, created_at: "2026-06-01T11:59:10.846Z", updated_at: "2026-06-01T11:59:10.846Z" } } }, null, 2));
  writeFile(root, "config/agentic/orchestrator/policy.yaml", "version: 1\nworktree:\n  base_branch: main\n");
  writeFile(root, "config/agentic/orchestrator/gates.yaml", "version: 1\nprofiles:\n  default:\n    modes:\n      fast:\n        - name: test\n          cmd: [npx, vitest, run]\ncapabilities: [none]\n");
  writeFile(root, "agentic/orchestrator/tools.md", "# AOP MCP Tool Surface\n\nGenerated from `agentic/orchestrator/tools/catalog.json`.\n\n- feature.state_get\n");
  return root;
}

describe("a workspace in the upstream shapes, built by hand", () => {
  const env = { AOP_NOW: NOW };
  const orphan = ["DRIFT_005_RUNTIME_SESSION_ORPHANS", "warning", `run ${RUN} maps sessions (planner → planner-ghost_feature-1, builder → builder-ghost_feature-1, qa → qa-ghost_feature-1) to feature ghost_feature, which is not in the index`];

  it.each([
    ["held and fresh: the orphan session", "2026-06-01T12:04:00.000Z", [...UPSTREAM_CONFIG_FINDINGS, orphan]],
    [
      "held and expired: stale, and the orphan session",
      "2026-06-01T11:30:00.000Z",
      [...UPSTREAM_CONFIG_FINDINGS, ["DRIFT_004_STALE_RUN_LEASE", "warning", `run ${RUN} (owner ${INSTANCE}) holds a lease that expired 30m ago (.aop/runtime/${INSTANCE}/run-lease.json)`], orphan],
    ],
    ["released (expiry at the epoch): nothing about the lease", "1970-01-01T00:00:00.000Z", [...UPSTREAM_CONFIG_FINDINGS]],
  ])("aop doctor --json, lease %s", (_name, expires, expected) => {
    const root = handBuilt({ expires });
    const { code, json } = runJson<Report>(["doctor"], { cwd: root, env });
    expect(code).toBe(0);
    expect(findings(json)).toEqual(expected);
  });

  it("aop run status", () => {
    const root = handBuilt({ expires: "2026-06-01T12:04:00.000Z" });
    const { json } = runJson(["run", "status"], { cwd: root, env });
    expect(json).toEqual({
      state: "active",
      expires_in_seconds: 240,
      lease_file: `.aop/runtime/${INSTANCE}/run-lease.json`,
      lease: {
        instance_id: INSTANCE, run_id: RUN, owner: INSTANCE, acquired_at: "2026-06-01T11:58:00.000Z", heartbeat_at: "2026-06-01T11:59:00.000Z", lease_expires_at: "2026-06-01T12:04:00.000Z", ttl_seconds: 300, released_at: null,
        sessions: { hello: { planner: "planner-hello-1", builder: "builder-hello-1", qa: "qa-hello-1" }, ghost_feature: { planner: "planner-ghost_feature-1", builder: "builder-ghost_feature-1", qa: "qa-ghost_feature-1" } },
      },
    });
    expect(runCli(["run", "status"], { cwd: root, env }).stdout).toBe(
      [
        `run ${RUN}  active  owner ${INSTANCE}, expires in 240s`,
        `  lease file .aop/runtime/${INSTANCE}/run-lease.json (written by the upstream orchestrator)`,
        "  hello  planner → planner-hello-1",
        "  hello  builder → builder-hello-1",
        "  hello  qa → qa-hello-1",
        "  ghost_feature  planner → planner-ghost_feature-1",
        "  ghost_feature  builder → builder-ghost_feature-1",
        "  ghost_feature  qa → qa-ghost_feature-1",
        "",
      ].join("\n"),
    );
  });

  it("aop replay: the entries as written, in sequence order, from a five-field meta", () => {
    const root = handBuilt({ expires: "1970-01-01T00:00:00.000Z" });
    const lines = fs.readFileSync(path.join(root, ".aop", "runtime", "replay", `${RUN}.timeline.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse(l) as unknown);
    expect(runJson<Page>(["replay", "--run-id", RUN], { cwd: root, env }).json).toEqual({ run_id: RUN, entries: lines, total_matched: 4, next_from_sequence: null, skipped_lines: 0 });
    expect(runJson<Page>(["replay", "--run-id", RUN, "--from-sequence", "2", "--limit", "1"], { cwd: root, env }).json).toEqual({ run_id: RUN, entries: [lines[2]], total_matched: 2, next_from_sequence: 3, skipped_lines: 0 });
    const human = runCli(["replay", "--run-id", RUN], { cwd: root, env }).stdout;
    expect(human).toMatch(/^\s+1\s+\d{2}:\d{2}:\d{2}\.\d{3}\s+ok\s+M\s+new\s+feature\.log_append\s+hello\s+20ms$/m);
    expect(human).toContain("4 of 4 matching entries (seq 0–3) · 1 error on this page");
  });

  it("leaves the orchestrator's lease, index, timeline, meta and ledger byte for byte as they were", () => {
    const root = handBuilt({ expires: "2026-06-01T12:04:00.000Z" });
    const before = upstreamFiles(root);
    runCli(["doctor"], { cwd: root, env });
    runCli(["run", "status"], { cwd: root, env });
    runCli(["replay", "--run-id", RUN], { cwd: root, env });
    runCli(["replay", "--list"], { cwd: root, env });
    expect(upstreamFiles(root)).toEqual(before);
  });
});
