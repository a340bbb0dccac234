// The sample workspaces a bundle's entry runs on at build time, so that V8 compiles what a real run
// needs before its code cache is written (scripts/bundle-bins.mjs, scripts/make-code-cache.cjs).
// Each takes an empty folder; `…Runs` give the entry's arguments, one list per call.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { attestChainFixture, fixtureSigner, writeChainFixture } from "./chain-fixture.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = (file) => import(pathToFileURL(path.join(root, "dist", file)).href);

/** A checkpoints folder touching every path of `validate`: valid, warnings, schema and rule errors, broken JSON. */
export async function checkpointSample(work) {
  const dir = path.join(work, ".checkpoints");
  fs.mkdirSync(dir);
  const { scaffoldCheckpoint } = await dist("domains/checkpoints/write-service.js");
  const doc = (skill, extra = {}) => ({
    ...scaffoldCheckpoint(skill, dir, "2026-03-01T08:00:00.000Z"),
    progress_table: [{ id: "r1", label: "Handlers", status: "in_progress" }, { id: "r2", label: "Tests", status: "not_started" }],
    next_actions: [{ text: "Write the refund handler", done_when: "npm test" }, "Review"],
    ...extra,
  });
  const files = {
    "valid-a": doc("valid-a", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "source" }], skill_state: { cursor: 3 } }),
    "valid-b": doc("valid-b", { status: "blocked", blockers: [{ id: "b1", description: "Which queue?", blocking: "r2", needs: "user_decision" }] }),
    warnings: doc("warnings", { context_primer: undefined, blockers: [{ id: "b1", description: "x", blocking: ["r9"], needs: "code_fix" }], next_action: "typo" }),
    "schema-errors": doc("schema-errors", { status: "paused", created_at: "yesterday", progress_table: [{ id: "", label: 3 }], next_actions: [] }),
    "rule-errors": doc("other-name", { updated_at: "2026-02-30T00:00:00Z", progress_table: [{ id: "r1", label: "a", status: "complete" }, { id: "r1", label: "b", status: "complete" }] }),
  };
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, `${name}.checkpoint.json`), JSON.stringify(content, null, 2));
  fs.writeFileSync(path.join(dir, "broken.checkpoint.json"), '{\n  "skill": "broken",\n}');
}

export const checkpointRuns = () => [[["validate"]], [["validate", "--json"]], [["validate", "--strict"]]];

const POLICY_YAML = "version: 1\nobservability:\n  replay:\n    retention:\n      max_runs: 100\n";

/** A workspace with one 1,000-entry timeline whose meta holds only the contract's five fields; a copy with a policy.yaml. */
export async function replaySample(work) {
  await replayWorkspace(work);
  await replayWorkspace(path.join(work, "with-policy"));
  fs.mkdirSync(path.join(work, "with-policy", "agentic", "orchestrator"), { recursive: true });
  fs.writeFileSync(path.join(work, "with-policy", "agentic", "orchestrator", "policy.yaml"), POLICY_YAML);
}

async function replayWorkspace(work) {
  const replay = path.join(work, ".aop", "runtime", "replay");
  fs.mkdirSync(replay, { recursive: true });
  const lines = [];
  for (let i = 0; i < 1000; i++) {
    lines.push(JSON.stringify({ ts: new Date(Date.UTC(2026, 0, 1) + i).toISOString(), sequence: i, run_id: "sample", session_id: null, actor_type: "orchestrator", feature_id: "f", tool_name: i % 2 ? "feature.get" : "feature.init", mutating: i % 2 === 0, operation_id: null, idempotency_status: "none", request_hash: null, result: i % 7 ? "ok" : "error", error_code: i % 7 ? null : "feature_not_found", latency_ms: 1 }));
  }
  fs.writeFileSync(path.join(replay, "sample.timeline.jsonl"), lines.join("\n") + "\n");
  fs.writeFileSync(path.join(replay, "sample.meta.json"), JSON.stringify({ run_id: "sample", sequence_head: 999, entry_count: 1000, started_at: null, last_entry_at: null }, null, 2));
}

export const replayRuns = (work) => [
  [["replay", "--run-id", "sample", "--from-sequence", "900", "--limit", "100", "--json"]],
  [["replay", "--run-id", "sample", "--limit", "20"]],
  [["replay", "--run-id", "sample", "--tool", "feature.get", "--json"]],
  [["replay", "--run-id", "sample", "--from-sequence", "900", "--limit", "100", "--json", "--root", path.join(work, "with-policy")]],
];

const SESSION = "0b6c7d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";

/** Two workspaces for the hook: a bare one (a tool event's shortest path) and one with a policy.yaml and checkpoints. */
export async function hookSample(work) {
  fs.mkdirSync(path.join(work, "bare", ".git"), { recursive: true });
  const full = path.join(work, "full");
  fs.mkdirSync(path.join(full, ".git"), { recursive: true });
  fs.mkdirSync(path.join(full, "agentic", "orchestrator"), { recursive: true });
  fs.writeFileSync(path.join(full, "agentic", "orchestrator", "policy.yaml"), POLICY_YAML);
  await checkpointSample(full);
}

/** Every event the hook acts on, as Claude Code sends them, in a session's order; tool events in both workspaces. */
export function hookRuns(work) {
  const event = (ws, name, extra = {}) => JSON.stringify({ session_id: SESSION, transcript_path: path.join(work, "t.jsonl"), cwd: path.join(work, ws), permission_mode: "default", hook_event_name: name, ...extra });
  const tool = (ws, id) => event(ws, "PostToolUse", { tool_name: "Edit", tool_input: { file_path: "a.ts", old_string: "a", new_string: "b" }, tool_response: { success: true }, tool_use_id: id, duration_ms: 3 });
  return [
    [tool("bare", "toolu_01")],
    [tool("bare", "toolu_02")],
    [event("full", "SessionStart", { source: "startup" })],
    [event("full", "UserPromptSubmit", { prompt: "go" })],
    [tool("full", "toolu_03")],
    [event("full", "PostToolUseFailure", { tool_name: "Bash", tool_input: { command: "false" }, tool_use_id: "toolu_04", error: "failed", is_interrupt: false })],
    [event("full", "PreCompact", { trigger: "auto" })],
    [event("full", "Stop", { stop_hook_active: false })],
    [event("full", "SessionEnd", { reason: "other" })],
  ];
}

/**
 * A workspace for `aop doctor`: a policy, a feature with an evidence chain, a timeline, checkpoints
 * (valid and broken) and a memory file, so that every family's checks run their usual paths.
 */
export async function doctorSample(work) {
  const [{ WorkspaceLayout }, { fixedClock }, { createFeature }, { TimelineWriter }, { writeGateEvidence }, { commitGateEvidence }, { loadPolicy }] = await Promise.all(
    ["store/layout.js", "core/clock.js", "domains/features/feature-store.js", "domains/replay/timeline-writer.js", "domains/evidence/evidence-files.js", "domains/evidence/evidence-commit.js", "config/policy-loader.js"].map(dist),
  );
  fs.mkdirSync(path.join(work, ".git"));
  const layout = new WorkspaceLayout(work);
  fs.mkdirSync(layout.orchestratorDir, { recursive: true });
  fs.writeFileSync(layout.policyFile, "version: 1\ninnovation:\n  tamper_evident_evidence: true\nobservability:\n  evidence_integrity:\n    enabled: true\n");
  const policy = await loadPolicy(layout);
  const clock = fixedClock("2026-01-01T00:00:00.000Z");
  await createFeature(layout, clock, { feature_id: "sample" });
  const writer = new TimelineWriter(layout, () => 1_000_000);
  for (let i = 0; i < 200; i++) {
    await writer.append({ ts: new Date(clock.now() + i).toISOString(), run_id: "sample", session_id: null, actor_type: "orchestrator", feature_id: "sample", tool_name: "feature.get", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1 });
  }
  writer.close();
  for (let e = 0; e < 3; e++) {
    clock.advance(1000);
    const at = new Date(clock.now()).toISOString();
    const written = writeGateEvidence(layout, { feature_id: "sample", mode: "full", profile: "default", overall: "pass", started_at: at, step_results: [] }, clock.now() + 5, { durable: false });
    await commitGateEvidence(layout, clock, policy, written, { recordState: false, durable: false });
  }
  await checkpointSample(work);
  fs.mkdirSync(layout.memoryDir, { recursive: true });
  fs.writeFileSync(layout.currentStateFile, "# Current State\n\n## Objective\nShip\n\n## Current Step\nBuild\n\n## Key Decisions\nNone\n\n## Next Action\nTest\n\n## Blockers\nNone\n");
}

export const doctorRuns = () => [[["doctor", "--json"]], [["doctor"]], [["doctor", "--strict", "--only", "drift"]]];

/** A workspace with a feature, for `aop mcp`. */
export async function mcpSample(work) {
  fs.mkdirSync(path.join(work, ".git"));
  fs.mkdirSync(path.join(work, ".aop", "features"), { recursive: true });
}

export const mcpRuns = () => [[["mcp"]]];

/** A client's first messages: the handshake, the tool list, a read and a write; then stdin ends. */
export function mcpInput() {
  const rpc = (id, method, params) => JSON.stringify({ jsonrpc: "2.0", ...(id === null ? {} : { id }), method, ...(params ? { params } : {}) });
  return [
    rpc(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "code-cache", version: "1" } }),
    rpc(null, "notifications/initialized"),
    rpc(2, "tools/list"),
    rpc(3, "tools/call", { name: "feature_init", arguments: { feature_id: "sample", title: "Sample", operation_id: "op-code-cache-1" } }),
    rpc(4, "tools/call", { name: "feature_get", arguments: { feature_id: "sample" } }),
    rpc(5, "resources/list"),
  ].join("\n") + "\n";
}


/** Two chained features: a plain one, and one whose gate runs carry attestations under an anchor. */
export async function verifySample(work) {
  fs.mkdirSync(path.join(work, ".git"));
  await writeChainFixture(work, "plain", 200);
  const { layout } = await writeChainFixture(work, "signed", 200);
  const { readCommittedKeys } = await dist("domains/attest/public-keys.js");
  const { anchorFeature } = await dist("domains/attest/anchor-service.js");
  const { systemClock } = await dist("core/clock.js");
  const signer = await fixtureSigner(layout);
  await attestChainFixture(layout, "signed", signer);
  await anchorFeature(layout, systemClock, signer, readCommittedKeys(layout).keys.values(), "signed", { durable: false });
}

export const verifyRuns = () => [[["evidence", "verify", "--feature-id", "plain", "--json"]], [["evidence", "verify", "--feature-id", "signed", "--json"]], [["evidence", "verify", "--all"]]];
