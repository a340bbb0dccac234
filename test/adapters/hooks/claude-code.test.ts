// aop under the real Claude Code CLI: sessions run offline against a scripted stand-in Messages API,
// with the hooks and the MCP server that `aop integrate claude --write --approve-mcp` installs. Claude
// Code's own validator judges every hook output (its --debug-file log reports each rejection), and
// the session's timeline must show what the session did. Claude Code is proprietary, so it is not a
// dependency: .ci/run installs a pinned version and sets AOP_TEST_CLAUDE_BIN.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startFakeMessagesApi, type FakeApi } from "../../helpers/claude-code/fake-messages-api.js";
import { CLAUDE_BIN, createSandbox, hookOutcomes, rejections, runClaude, sessionIdOf, type Sandbox } from "../../helpers/claude-code/harness.js";
import { readJoinedEntries } from "../../helpers/timeline.js";
import { writeFile } from "../../helpers/tmp.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";

const MISSING = "AOP_TEST_CLAUDE_BIN is not set (.ci/run installs the pinned Claude Code and sets it)";

if (!CLAUDE_BIN && process.env.CI === "true") {
  describe("aop under the real Claude Code CLI", () => {
    it("has a Claude Code executable to test against", () => {
      throw new Error(`${MISSING}; in CI this suite must run`);
    });
  });
}

const STATE = "# Current State\n\n## Objective\nShip the refund flow\n\n## Current Step\nRefund handler\n\n## Key Decisions\n- Stripe\n\n## Next Action\nWrite the refund handler test\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n";
const SUBAGENT = JSON.stringify({ description: "sub", prompt: 'sub\n@@tool Bash {"command":"echo from-sub"}\n@@text SUB-DONE', subagent_type: "general-purpose", run_in_background: false });
const SESSION_PROMPT = [
  "start",
  '@@tool ToolSearch {"query":"select:mcp__aop__feature_init"}',
  '@@tool Bash {"command":"echo hi"}',
  '@@tool Bash {"command":"ls no-such-file"}',
  `@@tool Agent ${SUBAGENT}`,
  '@@tool mcp__aop__feature_init {"feature_id":"feat_cc","title":"From Claude","operation_id":"op-claude-code-01"}',
  "@@text ok",
].join("\n");

/** A project wired the way a user wires it: `aop integrate claude --write --approve-mcp`. */
function integratedProject(sandbox: Sandbox): void {
  fs.mkdirSync(path.join(sandbox.project, ".git"));
  const r = runCli(["integrate", "claude", "--write", "--approve-mcp"], { cwd: sandbox.project });
  expect(r.code, r.stderr).toBe(0);
  writeFile(sandbox.project, "memory/CURRENT_STATE.md", STATE);
  writeFile(sandbox.project, ".checkpoints/architect.checkpoint.json", JSON.stringify(minimalCheckpoint("architect", { updated_at: new Date().toISOString() })));
  // Older than anything the session writes: the Stop reminder applies.
  const old = new Date(Date.now() - 3_600_000);
  fs.utimesSync(path.join(sandbox.project, "memory/CURRENT_STATE.md"), old, old);
}

/** Each entry as `tool_name` or its marker's label, with `@agent` for a subagent's: lines joined with their sidecar, where those live. */
function story(project: string, sessionId: string): string[] {
  return readJoinedEntries(new WorkspaceLayout(project), `claude-${sessionId}`).map((e) => `${String(e.marker ?? e.tool_name)}${e.result === "error" ? "!" : ""}${e.agent_id ? "@agent" : ""}`);
}

const requestsText = (api: FakeApi, from: number) => JSON.stringify(api.requests.slice(from).map((r) => r.body));

// Each test runs Claude Code (a 400 MB executable) once or twice; its first start reads it from disk,
// which on a loaded machine takes tens of seconds. runClaude ends a run after 90 s. The tests are the
// steps of one project's sessions (the /compact step resumes the first session): they run in order,
// even under --sequence.shuffle.
describe.skipIf(!CLAUDE_BIN)(`aop under the real Claude Code CLI${CLAUDE_BIN ? "" : ` (skipped: ${MISSING})`}`, { timeout: 200_000, shuffle: false }, () => {
  let api: FakeApi;
  let sandbox: Sandbox;
  let sessionId: string;

  beforeAll(async () => {
    api = await startFakeMessagesApi();
    sandbox = createSandbox();
    integratedProject(sandbox);
  });
  afterAll(async () => {
    await api?.close();
  });

  it("(control) the rejection check sees a rejected output: hookSpecificOutput on PreCompact, as aop printed before", async () => {
    const control = createSandbox();
    const bad = `node -e 'process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:"PreCompact",additionalContext:"x"}}))'`;
    writeFile(control.project, ".claude/settings.json", JSON.stringify({ hooks: { PreCompact: [{ hooks: [{ type: "command", command: bad }] }] } }));
    const first = await runClaude(control, { api, prompt: "hello\n@@text ok" });
    const run = await runClaude(control, { api, prompt: "/compact", args: ["--resume", sessionIdOf(first)] });
    expect(rejections(run).join("\n")).toMatch(/PreCompact.*Hook JSON output validation failed/);
  });

  it("claude mcp list shows the approved aop server connected, and an unapproved one pending", async () => {
    const approved = await runClaude(sandbox, { api, args: ["mcp", "list"] });
    expect(approved.stdout).toMatch(/aop: .*✔ Connected/);
    const other = createSandbox();
    fs.mkdirSync(path.join(other.project, ".git"));
    expect(runCli(["integrate", "claude", "--write"], { cwd: other.project }).stdout).toMatch(/Pending approval/);
    expect((await runClaude(other, { api, args: ["mcp", "list"] })).stdout).toMatch(/aop: .*Pending approval/);
  });

  it("a session with tools, a failure, a subagent and an aop MCP call: no hook output rejected, and the timeline tells the session", async () => {
    const from = api.requests.length;
    const run = await runClaude(sandbox, { api, prompt: SESSION_PROMPT, args: ["--allowedTools", "mcp__aop__feature_init"] });
    expect(run.code, run.stderr).toBe(0);
    expect(rejections(run)).toEqual([]);
    sessionId = sessionIdOf(run);
    expect(story(sandbox.project, sessionId)).toEqual([
      "SessionStart:startup",
      "UserPromptSubmit",
      "ToolSearch",
      "Bash",
      "Bash!",
      "SubagentStart@agent",
      "Bash@agent",
      "SubagentStop@agent",
      "Agent",
      "feature.init",
      "Stop",
      "SessionEnd:other",
    ]);
    const layout = new WorkspaceLayout(sandbox.project);
    const call = readJoinedEntries(layout, `claude-${sessionId}`).find((e) => e.tool_name === "feature.init")!;
    expect(call).toMatchObject({ mutating: true, idempotency_status: "new", operation_id: "op-claude-code-01", feature_id: "feat_cc", result: "ok" });
    // One call, one entry: nothing in the kernel's own run.
    const runs = fs.readdirSync(layout.replayDir).filter((f) => f.endsWith(".timeline.jsonl"));
    expect(runs).toEqual([`claude-${sessionId}.timeline.jsonl`]);
    // The orientation reached the model; the Stop reminder reached the user.
    expect(requestsText(api, from)).toContain("aop-continuity orientation");
    expect(requestsText(api, from)).toContain("Objective: Ship the refund flow");
    const stop = hookOutcomes(run).filter((h) => h.event === "Stop");
    expect(stop.map((h) => h.outcome)).toEqual(["success"]);
    expect(JSON.parse(stop[0]!.stdout)).toEqual({ systemMessage: expect.stringMatching(/CURRENT_STATE\.md is older/) });
  });

  it("a call refused by a permission rule (no event after PreToolUse) is recorded once, as tool_denied, when the agent stops", async () => {
    const run = await runClaude(sandbox, { api, prompt: 'refuse\n@@tool Bash {"command":"rm -f not-there.txt"}\n@@text ok', args: ["--disallowedTools", "Bash(rm:*)"] });
    expect(run.code, run.stderr).toBe(0);
    expect(rejections(run)).toEqual([]);
    const entries = readJoinedEntries(new WorkspaceLayout(sandbox.project), `claude-${sessionIdOf(run)}`);
    const bash = entries.filter((e) => e.tool_name === "Bash");
    expect(bash.map((e) => [e.result, e.error_code])).toEqual([["error", "tool_denied"]]);
  });

  it("/compact: PreCompact's plain text becomes compaction instructions, context returns at SessionStart (compact)", async () => {
    const from = api.requests.length;
    const run = await runClaude(sandbox, { api, prompt: "/compact", args: ["--resume", sessionId] });
    expect(run.code, run.stderr).toBe(0);
    expect(rejections(run)).toEqual([]);
    const after = story(sandbox.project, sessionId).slice(12);
    expect(after).toEqual(expect.arrayContaining(["SessionStart:resume", "PreCompact:manual", "SessionStart:compact"]));
    expect(after.indexOf("PreCompact:manual")).toBeLessThan(after.indexOf("SessionStart:compact"));
    expect(requestsText(api, from)).toContain("Keep these in the summary word for word");
  });

  it("stop_reminder: block continues the turn once with the reminder for the agent, then lets it stop", async () => {
    writeFile(sandbox.project, "agentic/orchestrator/policy.yaml", "hooks:\n  claude:\n    stop_reminder: block\n");
    const from = api.requests.length;
    const run = await runClaude(sandbox, { api, prompt: "again\n@@text ok" });
    expect(run.code, run.stderr).toBe(0);
    expect(rejections(run)).toEqual([]);
    const stops = hookOutcomes(run).filter((h) => h.event === "Stop");
    expect(stops.map((h) => h.outcome)).toEqual(["success", "success"]);
    expect(JSON.parse(stops[0]!.stdout)).toMatchObject({ decision: "block" });
    expect(stops[1]!.stdout).toBe("");
    expect(requestsText(api, from)).toContain("Before you stop: memory/CURRENT_STATE.md is older");
  });
});
