// Cursor's hooks as Cursor runs them (https://cursor.com/docs/agent/hooks): each command of the
// .cursor/hooks.json that `aop integrate cursor --write` wrote, run through a shell in the project with
// one documented payload on stdin. Cursor's CLI is not on the npm registry, so the payloads are written
// from its documented schema (payloads/cursor/payloads.ts), not captured from a session.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { readJoinedEntries } from "../../helpers/timeline.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { CURSOR_PAYLOADS } from "./payloads/cursor/payloads.js";

const SESSION = [
  "sessionStart",
  "beforeSubmitPrompt",
  "preToolUse",
  "postToolUse",
  "postToolUse-mcp",
  "postToolUseFailure",
  "postToolUseFailure-denied",
  "subagentStart",
  "subagentStop",
  "preCompact",
  "afterShellExecution",
  "stop",
  "stop-followup",
  "sessionEnd",
];

describe("aop hook cursor, run as Cursor runs .cursor/hooks.json", () => {
  it("records each call once (not aop's own MCP call), failures and refusals as errors, markers; prints the orientation and the stop follow-up", () => {
    const project = tempWorkspace();
    expect(runCli(["integrate", "cursor", "--write"], { cwd: project }).code).toBe(0);
    writeFile(project, "memory/CURRENT_STATE.md", "# Current State\n\n## Objective\nShip the refund flow\n");
    writeFile(project, "agentic/orchestrator/policy.yaml", "hooks:\n  claude:\n    stop_reminder: block\n");
    const transcript = writeFile(project, ".cursor-home/transcript.jsonl", "{}\n");
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(project, "memory/CURRENT_STATE.md"), old, old);
    const hooks = JSON.parse(fs.readFileSync(path.join(project, ".cursor/hooks.json"), "utf8")) as { version: number; hooks: Record<string, { command: string }[]> };
    expect(hooks.version).toBe(1);
    const outputs: Record<string, string> = {};
    for (const name of SESSION) {
      const payload: Record<string, unknown> = { ...CURSOR_PAYLOADS[name]!, workspace_roots: [project], transcript_path: transcript, ...(CURSOR_PAYLOADS[name]!.cwd ? { cwd: project } : {}) };
      const event = String(payload.hook_event_name);
      // The events aop did not install a hook for are not run: that is what Cursor does.
      for (const { command } of hooks.hooks[event] ?? []) {
        const r = spawnSync(command, { shell: true, cwd: project, input: JSON.stringify(payload), encoding: "utf8", env: { ...process.env, CURSOR_PROJECT_DIR: project } });
        expect(r.status).toBe(0);
        outputs[name] = r.stdout;
      }
    }
    expect(Object.keys(hooks.hooks)).not.toContain("afterShellExecution");
    const layout = new WorkspaceLayout(project);
    const entries = readJoinedEntries(layout, "cursor-668320d2-2fd8-4888-b33c-2a466fec86e7");
    expect(entries.map((e) => `${String(e.marker ?? e.tool_name)}${e.result === "error" ? `!${String(e.error_code)}` : ""}`)).toEqual([
      "sessionStart",
      "beforeSubmitPrompt",
      "Shell",
      "Shell!tool_error",
      "Shell!tool_denied",
      "subagentStart",
      "subagentStop",
      "preCompact:auto",
      "stop:completed",
      "stop:completed",
      "sessionEnd:completed",
    ]);
    expect(entries.every((e) => e.transport === "hook:cursor")).toBe(true);
    expect(entries.find((e) => e.tool_name === "Shell")).toMatchObject({ operation_id: "abc123", latency_ms: 5432 });
    expect(JSON.parse(outputs.sessionStart!).additional_context).toMatch(/aop-continuity orientation/);
    expect(JSON.parse(outputs.stop!).followup_message).toMatch(/Before you stop/);
    expect(outputs["stop-followup"]).toBe("");
    expect(outputs.postToolUse).toBe("");
  });

  it("an event aop does not act on is ignored with a hooks.log line, and nothing recorded", () => {
    const project = tempWorkspace();
    const payload = { ...CURSOR_PAYLOADS.afterShellExecution!, hook_event_name: "afterAgentThought", workspace_roots: [project] };
    const r = runCli(["hook", "cursor"], { cwd: project, input: JSON.stringify(payload) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const log = fs.readFileSync(new WorkspaceLayout(project).hooksLog, "utf8");
    expect(log).toMatch(/"event":"cursor:afterAgentThought".*ignored: afterAgentThought: aop does not act on this Cursor event/);
    expect(fs.existsSync(new WorkspaceLayout(project).timelineFile("cursor-668320d2-2fd8-4888-b33c-2a466fec86e7"))).toBe(false);
  });
});
