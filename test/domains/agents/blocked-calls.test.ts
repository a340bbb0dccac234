// Calls another hook refused under Codex and Gemini CLI get no after-event; the session log names them
// (fixtures captured from Codex 0.171's rollout and Gemini CLI 0.61's transcript with a second hook that
// exits 2, paths made generic). The parsers, the bounded read of the log, and `aop hook <client>` at a
// stop: each refused call recorded once, never one the run holds already.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codexBlockedCalls, codexBlockedIds, geminiBlockedCalls, type LogLines } from "../../../src/domains/agents/blocked-calls.js";
import { scanLog } from "../../../src/domains/agents/session-log.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { runCli } from "../../helpers/cli.js";
import { REPO_ROOT } from "../../helpers/paths.js";
import { readJoinedEntries } from "../../helpers/timeline.js";
import { tempDir, tempWorkspace, writeFile } from "../../helpers/tmp.js";

const PAYLOADS = path.join(REPO_ROOT, "test/adapters/hooks/payloads");
const ROLLOUT = path.join(PAYLOADS, "codex/rollout-blocked-by-PreToolUse.jsonl");
const TRANSCRIPT = path.join(PAYLOADS, "gemini/transcript-blocked-by-BeforeTool.jsonl");
const linesOf = (file: string) => fs.readFileSync(file, "utf8").trimEnd().split("\n");
const noSkips = (): LogLines["skipped"] => ({ overlong: 0, torn: 0, unparseable: 0 });

describe("Codex's rollout: the calls a PreToolUse hook refused", () => {
  it("finds the refused call by Codex's own output text, not the one that ran, and names it as Codex's hooks do", () => {
    const lines = linesOf(ROLLOUT);
    const skipped = noSkips();
    const ids = codexBlockedIds(lines, skipped);
    expect([...ids]).toEqual([["call_fake_2", "hook"]]);
    expect(codexBlockedCalls(ids, lines, skipped)).toEqual([{ call_id: "call_fake_2", name: "Bash", input: { cmd: "echo blocked-by-guard" }, ts: "2026-12-03T19:36:11.210Z", blocked_by: "hook" }]);
    expect(skipped).toEqual(noSkips());
  });

  it("an output that merely contains the text is no refusal; an MCP call keeps its namespace; an item not found is `unknown`", () => {
    const output = (id: string, text: string) => JSON.stringify({ type: "response_item", payload: { type: "function_call_output", call_id: id, output: text } });
    const skipped = noSkips();
    expect(codexBlockedIds([output("c1", "Chunk ID: 1\nOutput:\nCommand blocked by PreToolUse hook: printed by the command")], skipped).size).toBe(0);
    // Codex 0.171's output for a command its exec policy forbids (captured with `prefix_rule(pattern=["rm"], decision="forbidden")`).
    const forbidden = 'exec_command failed: CreateProcess { message: "Rejected(\\"`/bin/bash -lc \'rm -f x\'` rejected: policy forbids commands starting with `rm`\\")" }';
    const ids = codexBlockedIds([output("c2", "Tool call blocked by PreToolUse hook: no"), output("c3", "Command blocked by PreToolUse hook: no"), output("c4", forbidden), output("c5", "exec_command failed: CreateProcess { message: \"No such file\" }"), "{not json"], skipped);
    expect([...ids]).toEqual([["c2", "hook"], ["c3", "hook"], ["c4", "policy"]]);
    expect(skipped.unparseable).toBe(1);
    const call = JSON.stringify({ timestamp: "2026-12-03T10:00:00.000Z", payload: { type: "function_call", call_id: "c2", name: "feature_init", namespace: "mcp__aop", arguments: "{\"feature_id\":\"f\"}" } });
    expect(codexBlockedCalls(ids, [call], skipped)).toEqual([
      { call_id: "c2", name: "mcp__aop__feature_init", input: { feature_id: "f" }, ts: "2026-12-03T10:00:00.000Z", blocked_by: "hook" },
      { call_id: "c3", name: "unknown", blocked_by: "hook" },
      { call_id: "c4", name: "unknown", blocked_by: "policy" },
    ]);
  });
});

describe("Gemini CLI's transcript: the calls a BeforeTool hook refused", () => {
  it("finds the refused call once (Gemini writes the message twice), not the one that ran nor the one that failed", () => {
    const skipped = noSkips();
    const calls = geminiBlockedCalls(linesOf(TRANSCRIPT), skipped);
    expect(calls).toEqual([{ call_id: expect.stringMatching(/^run_shell_command__/), name: "run_shell_command", input: { command: "echo blocked-by-guard" }, ts: expect.any(String), blocked_by: "hook" }]);
    expect(skipped).toEqual(noSkips());
  });

  it("also in the messages a `$set` line writes (a resumed session); only Gemini's refusal texts count, a policy's deny too", () => {
    const call = (id: string, error: string) => ({ id, name: "write_file", args: {}, status: "error", result: [{ functionResponse: { id, response: { error } } }] });
    const line = JSON.stringify({ $set: { messages: [{ type: "gemini", toolCalls: [call("g1", "Agent execution stopped by hook: stop"), call("g2", "File not found: Tool execution blocked: x"), call("g3", "Tool execution denied by policy.")] }] } });
    expect(geminiBlockedCalls([line], noSkips()).map((c) => [c.call_id, c.blocked_by])).toEqual([["g1", "hook"], ["g3", "policy"]]);
  });
});

describe("reading the session log: bounded, never a FIFO", () => {
  it("a FIFO or a missing file is not read, and says why", () => {
    const dir = tempDir("aop-log-");
    const fifo = path.join(dir, "rollout.jsonl");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    expect(scanLog(fifo, ["x"])).toEqual({ problem: expect.stringContaining("FIFO") });
    expect(scanLog(path.join(dir, "missing.jsonl"), ["x"])).toEqual({ problem: expect.stringContaining("does not exist") });
  });

  it("reads only the log's last bytes (the line cut by the window left out), and counts over-long and torn lines", () => {
    const dir = tempDir("aop-log-");
    const file = writeFile(dir, "log.jsonl", `{"n":"needle-old"}\n{"n":"needle-a"}\n${"x".repeat(2 * 1024 * 1024)} needle\n{"n":"needle-b"}\n{"n":"needle-torn"`);
    const whole = scanLog(file, ["needle"]);
    expect("lines" in whole && whole.lines).toEqual(['{"n":"needle-old"}', '{"n":"needle-a"}', '{"n":"needle-b"}']);
    expect("skipped" in whole && whole.skipped).toEqual({ overlong: 1, torn: 1, unparseable: 0 });
    const size = fs.statSync(file).size;
    const tail = scanLog(file, ["needle"], size - 5);
    expect("lines" in tail && tail.lines).toEqual(['{"n":"needle-a"}', '{"n":"needle-b"}']);
    expect("from" in tail && tail.from).toBe(5);
    // A window that begins exactly at a line keeps that line.
    const atLine = scanLog(file, ["needle"], size - '{"n":"needle-old"}\n'.length);
    expect("lines" in atLine && atLine.lines).toEqual(['{"n":"needle-a"}', '{"n":"needle-b"}']);
    const atOld = scanLog(file, ["needle"], size);
    expect("lines" in atOld && atOld.lines[0]).toBe('{"n":"needle-old"}');
  });
});

describe("aop hook codex|gemini at a stop", () => {
  const stop = (client: "codex" | "gemini", root: string, transcript: string) =>
    client === "codex"
      ? { session_id: "01a23d68-3a23-7400-a6d2-c1d493408a40", turn_id: "t1", transcript_path: transcript, cwd: root, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "ok" }
      : { session_id: "92937f06-2857-4cf3-9124-f5c76be17628", transcript_path: transcript, cwd: root, hook_event_name: "AfterAgent", prompt: "go", prompt_response: "ok", stop_hook_active: false };
  const hook = (client: string, root: string, payload: object) => runCli(["hook", client, "--root", root], { input: JSON.stringify(payload) });

  for (const [client, log, runPrefix] of [["codex", ROLLOUT, "codex-01a23d68"], ["gemini", TRANSCRIPT, "gemini-92937f06"]] as const) {
    it(`${client}: each refused call once, before the stop's marker, however many stops read the log`, () => {
      const root = tempWorkspace();
      expect(hook(client, root, stop(client, root, log)).code).toBe(0);
      expect(hook(client, root, stop(client, root, log)).code).toBe(0);
      const layout = new WorkspaceLayout(root);
      const runId = fs.readdirSync(layout.replayDir).find((n) => n.startsWith(runPrefix) && n.endsWith(".timeline.jsonl"))!.replace(".timeline.jsonl", "");
      const entries = readJoinedEntries(layout, runId);
      expect(entries.map((e) => e.error_code ?? e.marker)).toEqual(["tool_denied", client === "codex" ? "Stop" : "AfterAgent", client === "codex" ? "Stop" : "AfterAgent"]);
      expect(entries[0]).toMatchObject({ result: "error", transport: `hook:${client}`, client, blocked_by: "hook", found_in: client === "codex" ? "rollout" : "transcript", tool_use_id: entries[0]!.operation_id });
    });
  }

  it("a call the run already holds is not recorded again; a log that cannot be read is logged, never fatal", () => {
    const root = tempWorkspace();
    // The refused call's id is already the operation_id of an entry (spooled, not yet appended).
    const layout = new WorkspaceLayout(root);
    const runId = "codex-01a23d68-3a23-7400-a6d2-c1d493408a40";
    writeFile(layout.timelineSpoolDir(runId), "000000000000001-1-00000000-000000.json", JSON.stringify({ ts: "2026-12-03T19:36:11.210Z", run_id: runId, session_id: "s", actor_type: "agent", feature_id: null, tool_name: "Bash", mutating: true, operation_id: "call_fake_2", idempotency_status: "none", request_hash: null, result: "error", error_code: "tool_denied", latency_ms: 0 }, null, 2));
    expect(hook("codex", root, stop("codex", root, ROLLOUT)).code).toBe(0);
    expect(readJoinedEntries(layout, runId).map((e) => e.operation_id ?? e.marker)).toEqual(["call_fake_2", "Stop"]);
    const dir = tempDir("aop-log-");
    const fifo = path.join(dir, "rollout.jsonl");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    expect(hook("codex", root, stop("codex", root, fifo)).code).toBe(0);
    expect(fs.readFileSync(layout.hooksLog, "utf8")).toContain("refused calls not looked for: the session log");
    expect(readJoinedEntries(layout, runId).map((e) => e.operation_id ?? e.marker)).toEqual(["call_fake_2", "Stop", "Stop"]);
  });
});
