// `aop agent` prints what MCP clients get as aop://orientation and the prompts, and what Claude Code
// gets at SessionStart; `aop replay` shows a Claude Code session's markers and subagent calls.
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { claudePayload } from "../../helpers/claude-payloads.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";

const NOW = { AOP_NOW: "2026-07-01T09:00:00.000Z", CLAUDE_PROJECT_DIR: undefined };

function workspace(): string {
  const root = tempWorkspace();
  writeFile(root, "memory/CURRENT_STATE.md", "# Current State\n\n## Objective\nShip the billing export\n\n## Next Action\nAdd the header row test\n");
  writeFile(root, ".checkpoints/architect.checkpoint.json", JSON.stringify(minimalCheckpoint("architect", { updated_at: "2026-07-01T08:00:00.000Z" })));
  return root;
}

describe("aop agent", () => {
  it("orientation is the SessionStart context, word for word", () => {
    const root = workspace();
    const cli = runJson<{ uri: string; text: string }>(["agent", "orientation"], { cwd: root, env: NOW });
    expect(cli.code).toBe(0);
    const hook = runCli(["hook", "claude"], { cwd: root, input: JSON.stringify(claudePayload("SessionStart", root)), env: NOW });
    expect(cli.json).toEqual({ uri: "aop://orientation", text: (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext });
    expect(cli.json.text).toMatch(/Objective: Ship the billing export/);
  });

  it("prompt resume --skill and prompt handoff print the MCP prompts; an unknown one is an error", () => {
    const root = workspace();
    const resume = runCli(["agent", "prompt", "resume", "--skill", "architect"], { cwd: root, env: NOW });
    expect(resume.code).toBe(0);
    expect(resume.stdout).toMatch(/^Resume the 'architect' skill[\s\S]*\[aop:\/\/orientation\][\s\S]*## Resume: architect — shop-api/);
    const handoff = runCli(["agent", "prompt", "handoff"], { cwd: root, env: NOW });
    expect(handoff.stdout).toMatch(/Objective now reads: Ship the billing export/);
    expect(handoff.stdout).toMatch(/Missing now: Current Step, Key Decisions, Blockers, Unsurfaced Results/);
    const unknown = runCli(["agent", "prompt", "sideways"], { cwd: root });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/error invalid_argument: unknown prompt 'sideways' \(prompts: resume, handoff\)/);
  });
});

describe("aop replay of a Claude Code session", () => {
  it("shows markers and a subagent's calls under it", () => {
    const root = tempWorkspace();
    const start = claudePayload("SubagentStart", root);
    for (const p of [claudePayload("SessionStart", root, { session_id: start.session_id }), start, claudePayload("PostToolUse-in-subagent", root, { session_id: start.session_id, agent_id: start.agent_id }), claudePayload("SubagentStop", root, { session_id: start.session_id })]) {
      expect(runCli(["hook", "claude"], { cwd: root, input: JSON.stringify(p), env: NOW }).code).toBe(0);
    }
    const r = runCli(["replay", "--run-id", `claude-${String(start.session_id)}`], { cwd: root });
    const tools = r.stdout.trim().split("\n").slice(1, 5).map((l) => l.replace(/^.*?(ok|ERROR \S+)\s+(M\s+)?-\s+/, "").replace(/\s+\d+ms$/, "").trim());
    expect(tools).toEqual(["— SessionStart:startup", "↳ general-purpose: — SubagentStart", "↳ general-purpose: Bash", "↳ general-purpose: — SubagentStop"]);
  });
});
