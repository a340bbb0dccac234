// `aop hook claude` per event, with payloads exactly as Claude Code sends them: what it prints (the
// shapes Claude Code accepts, docs/agents.md) and what it records in the session's timeline.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { CLI_BIN } from "../../helpers/paths.js";
import { claudePayload } from "../../helpers/claude-payloads.js";
import { readSidecarLines, readTimelineLines, SEED_KEYS, sequences } from "../../helpers/timeline.js";
import { tempDir, tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { hashCanonical } from "../../../src/core/hash.js";
import { MAX_HOOK_OUTPUT_CHARS } from "../../../src/domains/agents/hook-output.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";

const STATE = "# Current State\n\n## Objective\nShip the billing export\n\n## Current Step\nWriting the CSV encoder\n\n## Key Decisions\n- RFC 4180 quoting\n\n## Next Action\nAdd the header row test\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n";

function hook(root: string, payload: Record<string, unknown>, env: Record<string, string | undefined> = {}) {
  const r = runCli(["hook", "claude"], { cwd: root, input: JSON.stringify(payload), env: { AOP_NOW: "2026-07-01T09:00:00.000Z", CLAUDE_PROJECT_DIR: undefined, ...env } });
  expect(r.code).toBe(0);
  expect(r.stdout.length).toBeLessThanOrEqual(MAX_HOOK_OUTPUT_CHARS);
  return r;
}

/**
 * The session's entries: every line exactly the seed's 14 keys (DESIGN §21), with the sidecar's extras
 * (marker labels, subagent fields, the client's call id) joined back by sequence as readers do.
 */
function timeline(root: string, sessionId: string): Record<string, unknown>[] {
  const layout = new WorkspaceLayout(root);
  const runId = `claude-${sessionId}`;
  if (!fs.existsSync(layout.timelineFile(runId))) return [];
  const lines = readTimelineLines(layout, runId);
  expect(sequences(lines)).toEqual(lines.entries.map((_, i) => i));
  for (const line of lines.entries) expect(Object.keys(line)).toEqual(SEED_KEYS);
  const extras = new Map(readSidecarLines(layout, runId).map(({ sequence, ...rest }) => [sequence as number, rest]));
  return lines.entries.map((line) => ({ ...line, ...extras.get(line.sequence as number) }));
}

function workspaceWithState(): string {
  const root = tempWorkspace();
  writeFile(root, "memory/CURRENT_STATE.md", STATE);
  writeFile(root, ".checkpoints/architect.checkpoint.json", JSON.stringify(minimalCheckpoint("architect", { updated_at: "2026-07-01T08:00:00.000Z", blockers: [{ id: "b1", description: "Pick Postgres or SQLite", needs: "user_decision" }] })));
  return root;
}

/** Makes CURRENT_STATE.md older than the session's transcript (the case the Stop reminder is for). */
function staleState(root: string, payload: Record<string, unknown>): void {
  writeFile(root, path.relative(root, String(payload.transcript_path)), "{}\n");
  const old = new Date(Date.now() - 3_600_000);
  fs.utimesSync(path.join(root, "memory/CURRENT_STATE.md"), old, old);
}

describe("SessionStart", () => {
  it.each(["SessionStart", "SessionStart-resume", "SessionStart-clear", "SessionStart-compact", "SessionStart-fork"])("%s prints only hookSpecificOutput for SessionStart with the orientation, and records a marker", (name) => {
    const root = workspaceWithState();
    const payload = claudePayload(name, root);
    const r = hook(root, payload);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["hookSpecificOutput"]);
    const specific = out.hookSpecificOutput as { hookEventName: string; additionalContext: string };
    expect(Object.keys(specific)).toEqual(["hookEventName", "additionalContext"]);
    expect(specific.hookEventName).toBe("SessionStart");
    expect(specific.additionalContext).toMatch(/architect: b1 — Pick Postgres or SQLite[\s\S]*Objective: Ship the billing export/);
    const [marker] = timeline(root, String(payload.session_id));
    expect(marker).toMatchObject({ tool_name: "session.start", marker: `SessionStart:${String(payload.source)}`, actor_type: "agent", mutating: false, result: "ok", session_id: payload.session_id });
  });
});

describe("PreCompact", () => {
  it.each(["PreCompact", "PreCompact-auto", "PreCompact-custom"])("%s prints plain-text compaction instructions, never hookSpecificOutput", (name) => {
    const root = workspaceWithState();
    const payload = claudePayload(name, root);
    const r = hook(root, payload);
    expect(r.stdout.trimStart().startsWith("{")).toBe(false);
    expect(r.stdout).not.toMatch(/hookSpecificOutput/);
    expect(r.stdout).toMatch(/^Keep these in the summary word for word/);
    expect(r.stdout).toMatch(/the objective: Ship the billing export/);
    expect(r.stdout).toMatch(/the next action: Add the header row test/);
    expect(r.stdout).toMatch(/the open decision architect\/b1: Pick Postgres or SQLite/);
    expect(timeline(root, String(payload.session_id)).map((e) => e.marker)).toEqual([`PreCompact:${String(payload.trigger)}`]);
  });

  it("prints nothing when there is nothing to keep", () => {
    const root = tempWorkspace();
    expect(hook(root, claudePayload("PreCompact", root)).stdout).toBe("");
  });
});

describe("Stop and hooks.claude.stop_reminder", () => {
  const policy = (root: string, mode: string) => writeFile(root, "agentic/orchestrator/policy.yaml", `hooks:\n  claude:\n    stop_reminder: ${mode}\n`);

  it("message (the default): a stale CURRENT_STATE.md gives {systemMessage} for the user; a fresh one nothing", () => {
    const root = workspaceWithState();
    const payload = claudePayload("Stop", root);
    staleState(root, payload);
    const stale = hook(root, payload);
    expect(JSON.parse(stale.stdout)).toEqual({ systemMessage: expect.stringMatching(/memory\/CURRENT_STATE\.md is older than this session's transcript/) });
    expect(stale.stderr).toBe("");
    fs.utimesSync(path.join(root, "memory/CURRENT_STATE.md"), new Date(), new Date(Date.now() + 60_000));
    expect(hook(root, payload).stdout).toBe("");
    expect(timeline(root, String(payload.session_id)).map((e) => e.marker)).toEqual(["Stop", "Stop"]);
  });

  it("block: blocks once per session, never while stop_hook_active, then falls back to the message", () => {
    const root = workspaceWithState();
    policy(root, "block");
    const first = claudePayload("Stop", root);
    staleState(root, first);
    expect(JSON.parse(hook(root, first).stdout)).toEqual({ decision: "block", reason: expect.stringMatching(/^Before you stop: memory\/CURRENT_STATE\.md is older/) });
    // Claude Code continues the turn and fires Stop again with stop_hook_active: true.
    const again = claudePayload("Stop-second-after-block", root, { session_id: first.session_id, transcript_path: first.transcript_path });
    expect(hook(root, again).stdout).toBe("");
    const later = hook(root, first);
    expect(JSON.parse(later.stdout)).toEqual({ systemMessage: expect.any(String) });
  });

  it("block never blocks while stop_hook_active, even the first time", () => {
    const root = workspaceWithState();
    policy(root, "block");
    const payload = claudePayload("Stop-second-after-block", root);
    staleState(root, payload);
    expect(hook(root, payload).stdout).toBe("");
  });

  it("off: nothing, even when stale", () => {
    const root = workspaceWithState();
    policy(root, "off");
    const payload = claudePayload("Stop", root);
    staleState(root, payload);
    expect(hook(root, payload).stdout).toBe("");
  });

  it("is schema-backed: an unknown mode is a policy problem (config check), and the hook uses the default", () => {
    const root = workspaceWithState();
    policy(root, "loudly");
    const check = runCli(["config", "check"], { cwd: root });
    expect(check.code).not.toBe(0);
    expect(check.stdout + check.stderr).toMatch(/hooks\.claude\.stop_reminder/);
    const payload = claudePayload("Stop", root);
    staleState(root, payload);
    expect(JSON.parse(hook(root, payload).stdout)).toHaveProperty("systemMessage");
  });
});

describe("tool events", () => {
  it("PostToolUse and PostToolUseFailure record one entry each; nothing is printed", () => {
    const root = tempWorkspace();
    const ok = claudePayload("PostToolUse", root);
    const failed = claudePayload("PostToolUseFailure", root, { session_id: ok.session_id });
    expect(hook(root, ok).stdout).toBe("");
    expect(hook(root, failed).stdout).toBe("");
    expect(timeline(root, String(ok.session_id)).map((e) => [e.tool_name, e.mutating, e.result, e.error_code, e.operation_id, e.latency_ms, e.request_hash])).toEqual([
      ["Bash", true, "ok", null, ok.tool_use_id, 28, hashCanonical(ok.tool_input)],
      ["Bash", true, "error", "tool_error", failed.tool_use_id, 24, hashCanonical(failed.tool_input)],
    ]);
  });

  it("a subagent's calls carry agent_id and agent_type and sit between its SubagentStart and SubagentStop markers", () => {
    const root = tempWorkspace();
    const start = claudePayload("SubagentStart", root);
    const sid = start.session_id;
    const inside = claudePayload("PostToolUse-in-subagent", root, { session_id: sid, agent_id: start.agent_id });
    const stop = claudePayload("SubagentStop", root, { session_id: sid });
    const agentTool = claudePayload("PostToolUse-Agent", root, { session_id: sid });
    for (const p of [start, inside, stop, agentTool]) expect(hook(root, p).stdout).toBe("");
    const entries = timeline(root, String(sid));
    expect(entries.map((e) => [e.tool_name, e.marker ?? null, e.agent_id ?? null, e.agent_type ?? null])).toEqual([
      ["session.subagent_start", "SubagentStart", "a18b831ed0b7b0867", "general-purpose"],
      ["Bash", null, "a18b831ed0b7b0867", "general-purpose"],
      ["session.subagent_stop", "SubagentStop", "a18b831ed0b7b0867", "general-purpose"],
      ["Agent", null, null, null],
    ]);
  });

  it("a compaction subagent's SubagentStop (agent_type empty) keeps only its agent_id", () => {
    const root = tempWorkspace();
    const payload = claudePayload("SubagentStop-during-compact", root);
    hook(root, payload);
    const [marker] = timeline(root, String(payload.session_id));
    expect(marker).toMatchObject({ marker: "SubagentStop", agent_id: "a24754245c66fcd5b" });
    expect(marker).not.toHaveProperty("agent_type");
  });

  it("an aop MCP tool whose server entry is not there is recorded with its canonical name and the catalog's mutating", () => {
    const root = tempWorkspace();
    const payload = claudePayload("PostToolUse-mcp", root, { tool_name: "mcp__aop__feature_init", tool_input: { feature_id: "feat_x", operation_id: "op-hook-000001" }, mcp_server: { name: "aop", source: "project" } });
    hook(root, payload);
    expect(timeline(root, String(payload.session_id)).map((e) => [e.tool_name, e.mutating])).toEqual([["feature.init", true]]);
  });

  it("another server's MCP tool keeps its mcp__ name", () => {
    const root = tempWorkspace();
    const payload = claudePayload("PostToolUse-mcp", root);
    hook(root, payload);
    expect(timeline(root, String(payload.session_id)).map((e) => [e.tool_name, e.mutating])).toEqual([["mcp__demo__echo", false]]);
  });
});

describe("UserPromptSubmit, SessionEnd", () => {
  it("UserPromptSubmit records only the prompt's hash; the prompt is stored nowhere", () => {
    const root = tempWorkspace();
    const prompt = "deploy with token sk-do-not-store-7f3a";
    const payload = claudePayload("UserPromptSubmit", root, { prompt });
    expect(hook(root, payload).stdout).toBe("");
    const [marker] = timeline(root, String(payload.session_id));
    expect(marker).toMatchObject({ tool_name: "session.prompt", marker: "UserPromptSubmit", request_hash: hashCanonical(prompt) });
    for (const f of fs.readdirSync(path.join(root, ".aop"), { recursive: true })) {
      const file = path.join(root, ".aop", String(f));
      if (fs.statSync(file).isFile()) expect(fs.readFileSync(file, "utf8")).not.toContain("sk-do-not-store");
    }
  });

  it("SessionEnd prints nothing, records the end, flushes the spool and removes the session's spool folder", () => {
    const root = tempWorkspace();
    const end = claudePayload("SessionEnd", root);
    const layout = new WorkspaceLayout(root);
    const runId = `claude-${String(end.session_id)}`;
    // An entry left in the spool by a hook that ran out of time.
    writeFile(root, path.relative(root, layout.timelineSpoolFile(runId, "000001782896400000-1-00000000-abcdef.json")), JSON.stringify({ ts: "2026-07-01T08:59:00.000Z", run_id: runId, session_id: end.session_id, actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: "toolu_late", idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 3 }));
    expect(hook(root, end).stdout).toBe("");
    expect(timeline(root, String(end.session_id)).map((e) => [e.tool_name, e.marker ?? null])).toEqual([["Read", null], ["session.end", "SessionEnd:other"]]);
    expect(fs.existsSync(layout.timelineSpoolDir(runId))).toBe(false);
  });
});

describe("the workspace", () => {
  it("outside any workspace nothing is recorded and nothing is created, even for SessionStart", () => {
    const plain = tempDir("aop-plain-");
    for (const name of ["SessionStart", "PostToolUse", "Stop", "SessionEnd"]) {
      const r = hook(plain, claudePayload(name, plain));
      expect(r.stdout).toBe("");
    }
    expect(fs.readdirSync(plain)).toEqual([]);
  });

  it("a cwd of / is never a workspace, even with a stray marker there", () => {
    const before = fs.existsSync("/.aop");
    const sessionId = `root-test-${process.pid}-${Date.now()}`;
    hook("/", claudePayload("PostToolUse", "/", { session_id: sessionId }));
    expect(fs.existsSync("/.aop")).toBe(before);
    expect(fs.existsSync(`/.aop/runtime/replay/claude-${sessionId}.spool`)).toBe(false);
    expect(fs.existsSync(`/.aop/runtime/replay/claude-${sessionId}.timeline.jsonl`)).toBe(false);
  });

  it("CLAUDE_PROJECT_DIR wins over the event's cwd", () => {
    const project = tempWorkspace();
    const elsewhere = tempWorkspace();
    const payload = claudePayload("PostToolUse", elsewhere);
    hook(elsewhere, payload, { CLAUDE_PROJECT_DIR: project });
    expect(timeline(project, String(payload.session_id))).toHaveLength(1);
    expect(fs.existsSync(path.join(elsewhere, ".aop"))).toBe(false);
  });
});

describe("aop's own MCP calls from Claude Code are recorded once, in the session", () => {
  async function callAsClaudeCode(root: string, calls: { tool: string; args: Record<string, unknown>; toolUseId: string }[]): Promise<void> {
    const { Client } = await import("@modelcontextprotocol/client");
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string" && !e[0].startsWith("AOP_")));
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, "mcp", "--root", root], env: { ...env, AOP_RUN_ID: "kernel-run" }, stderr: "pipe" });
    const client = new Client({ name: "claude-code", version: "2.1.332" });
    await client.connect(transport);
    try {
      // Claude Code sends its tool_use_id in _meta (seen on 2.1.112 and 2.1.332).
      for (const c of calls) await client.callTool({ name: c.tool, arguments: c.args, _meta: { "claudecode/toolUseId": c.toolUseId, progressToken: 1 } });
    } finally {
      await client.close();
    }
  }

  it("the server leaves its entry for the session's hook, which files it with the kernel's fields (and the subagent)", async () => {
    const root = tempWorkspace();
    await callAsClaudeCode(root, [
      { tool: "feature_init", args: { feature_id: "feat_m", operation_id: "op-claude-0001" }, toolUseId: "toolu_aop_1" },
      { tool: "feature_get", args: { feature_id: "feat_m" }, toolUseId: "toolu_aop_2" },
    ]);
    const layout = new WorkspaceLayout(root);
    expect(fs.existsSync(layout.timelineFile("kernel-run"))).toBe(false);
    const base = claudePayload("PostToolUse-mcp", root, { mcp_server: { name: "aop", source: "project" } });
    hook(root, { ...base, tool_name: "mcp__aop__feature_init", tool_input: { feature_id: "feat_m", operation_id: "op-claude-0001" }, tool_use_id: "toolu_aop_1" });
    hook(root, { ...base, tool_name: "mcp__aop__feature_get", tool_input: { feature_id: "feat_m" }, tool_use_id: "toolu_aop_2", agent_id: "a35f77f9919980e71", agent_type: "Explore" });
    const entries = timeline(root, String(base.session_id));
    expect(entries.map((e) => [e.tool_name, e.mutating, e.idempotency_status, e.operation_id, e.feature_id, e.actor_type, e.session_id, e.agent_id ?? null])).toEqual([
      ["feature.init", true, "new", "op-claude-0001", "feat_m", "orchestrator", base.session_id, null],
      ["feature.get", false, "none", null, "feat_m", "orchestrator", base.session_id, "a35f77f9919980e71"],
    ]);
    expect(entries[0]!.request_hash).toMatch(/^sha256:/);
    // Served by aop mcp: the adopted entries keep the transport the server recorded (docs/replay.md).
    expect(entries.map((e) => e.transport)).toEqual(["mcp", "mcp"]);
    expect(fs.existsSync(layout.timelineFile("kernel-run"))).toBe(false);
    expect(fs.readdirSync(layout.timelineHandoffDir)).toEqual([]);
  });

  it("an entry no hook adopts in time is filed in the kernel's run (here at SessionEnd), never lost", async () => {
    const root = tempWorkspace();
    // A workspace aop has written to: a read-only call in one it never wrote to is not recorded (docs/hardening.md, "Litter").
    fs.mkdirSync(path.join(root, ".aop"));
    await callAsClaudeCode(root, [{ tool: "feature_list", args: {}, toolUseId: "toolu_aop_orphan" }]);
    const layout = new WorkspaceLayout(root);
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(layout.timelineHandoffFile("toolu_aop_orphan"), old, old);
    hook(root, claudePayload("SessionEnd", root));
    expect(readTimelineLines(layout, "kernel-run").entries.map((e) => e.tool_name)).toEqual(["feature.list"]);
    expect(fs.readdirSync(layout.timelineHandoffDir)).toEqual([]);
  });
});

describe("SessionEnd of a session that never started", () => {
  it("(claude mcp list ends one) records nothing and creates no run", () => {
    const root = tempWorkspace();
    const end = claudePayload("SessionEnd", root);
    expect(hook(root, end).stdout).toBe("");
    expect(fs.existsSync(new WorkspaceLayout(root).timelineFile(`claude-${String(end.session_id)}`))).toBe(false);
  });
});

describe("calls announced by PreToolUse that never finish (refused)", () => {
  it("a call with a PostToolUse is recorded once; one without is recorded as tool_denied at Stop, a subagent's at its SubagentStop; PermissionDenied records at once", () => {
    const root = tempWorkspace();
    const post = claudePayload("PostToolUse", root);
    const sid = String(post.session_id);
    const pre = (id: string, extra: Record<string, unknown> = {}) => ({ ...post, hook_event_name: "PreToolUse", tool_use_id: id, ...extra, tool_response: undefined, duration_ms: undefined });
    hook(root, pre("toolu_ran"));
    hook(root, { ...post, tool_use_id: "toolu_ran" });
    hook(root, pre("toolu_refused"));
    hook(root, pre("toolu_sub_refused", { agent_id: "agent-1", agent_type: "general-purpose" }));
    hook(root, { ...pre("toolu_classifier"), hook_event_name: "PermissionDenied", reason: "auto mode classifier" });
    hook(root, claudePayload("Stop", root));
    const story = () => timeline(root, sid).map((e) => [e.marker ?? e.tool_name, e.operation_id, e.error_code, e.agent_id ?? null]);
    expect(story()).toEqual([
      [post.tool_name, "toolu_ran", null, null],
      [post.tool_name, "toolu_classifier", "tool_denied", null],
      [post.tool_name, "toolu_refused", "tool_denied", null],
      ["Stop", null, null, null],
    ]);
    hook(root, { ...claudePayload("SubagentStop", root), session_id: sid, agent_id: "agent-1" });
    expect(story().slice(4)).toEqual([
      [post.tool_name, "toolu_sub_refused", "tool_denied", "agent-1"],
      ["SubagentStop", null, null, "agent-1"],
    ]);
  });
});
