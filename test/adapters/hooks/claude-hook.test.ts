import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliAsync, runCli } from "../../helpers/cli.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { readTimelineLines, sequences } from "../../helpers/timeline.js";
import { hashCanonical } from "../../../src/core/hash.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";
import { spoolBacklog } from "../../../src/domains/replay/timeline-spool.js";
import { bySuite } from "../../helpers/soak.js";
import { CLI_BIN } from "../../helpers/paths.js";

const SESSION = "0b6c7d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";
const SECRET = "do-not-store-this-token-9f8e7d";
/** Hook processes started at once: 50 in the soak run (test/helpers/soak.ts). */
const HOOKS_AT_ONCE = bySuite(16, 50);

function event(root: string, name: string, extra: object = {}): string {
  return JSON.stringify({ session_id: SESSION, transcript_path: path.join(root, "transcript.jsonl"), cwd: root, permission_mode: "default", hook_event_name: name, ...extra });
}

function hook(root: string, input: string, env: Record<string, string> = {}) {
  return runCli(["hook", "claude"], { cwd: root, input, env: { AOP_NOW: "2026-07-01T09:00:00.000Z", ...env } });
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, String(f))).filter((f) => fs.statSync(f).isFile());
}

describe("aop hook claude — tool events", () => {
  it("PostToolUse and PostToolUseFailure become timeline entries in run claude-<session_id>; raw input and response are never stored", () => {
    const root = tempWorkspace();
    const edit = { file_path: path.join(root, "a.ts"), old_string: SECRET, new_string: "x" };
    const steps = [
      event(root, "PostToolUse", { tool_name: "Edit", tool_input: edit, tool_response: { filePath: "a.ts", success: true, content: SECRET }, tool_use_id: "toolu_01A", duration_ms: 37 }),
      event(root, "PostToolUse", { tool_name: "Read", tool_input: { file_path: "/etc/hosts" }, tool_response: { content: SECRET }, tool_use_id: "toolu_01B" }),
      event(root, "PostToolUseFailure", { tool_name: "Bash", tool_input: { command: `curl ${SECRET}` }, tool_use_id: "toolu_01C", error: "Command exited with non-zero status code 1", is_interrupt: false }),
      event(root, "PostToolUseFailure", { tool_name: "mcp__github__create_issue", tool_input: { title: SECRET }, tool_use_id: "toolu_01D", error: "Interrupted by user", is_interrupt: true, duration_ms: 1200 }),
    ];
    for (const input of steps) {
      const r = hook(root, input);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("");
    }
    const lines = readTimelineLines(new WorkspaceLayout(root), `claude-${SESSION}`);
    expect(sequences(lines)).toEqual([0, 1, 2, 3]);
    expect(lines.entries.map((e) => [e.tool_name, e.mutating, e.result, e.error_code, e.operation_id, e.latency_ms, e.actor_type, e.idempotency_status, e.session_id])).toEqual([
      ["Edit", true, "ok", null, "toolu_01A", 37, "agent", "none", SESSION],
      ["Read", false, "ok", null, "toolu_01B", 0, "agent", "none", SESSION],
      ["Bash", true, "error", "tool_error", "toolu_01C", 0, "agent", "none", SESSION],
      ["mcp__github__create_issue", false, "error", "interrupted", "toolu_01D", 1200, "agent", "none", SESSION],
    ]);
    expect(lines.entries[0]!.request_hash).toBe(hashCanonical(edit));
    expect(lines.entries[0]!.ts).toBe("2026-07-01T09:00:00.000Z");
    for (const file of filesUnder(path.join(root, ".aop"))) expect(fs.readFileSync(file, "utf8"), file).not.toContain(SECRET);
  });

  it("a tool event while another process holds the session's lock is spooled, not lost; the next event appends it first", () => {
    const root = tempWorkspace();
    const layout = new WorkspaceLayout(root);
    const run = `claude-${SESSION}`;
    fs.mkdirSync(layout.replayDir, { recursive: true });
    const lock = `${layout.timelineFile(run)}.lock`;
    fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, hostname: os.hostname(), acquired_at: new Date().toISOString(), token: "other" }));
    expect(hook(root, event(root, "PostToolUse", { tool_name: "Read", tool_input: { file_path: "a" }, tool_use_id: "toolu_held" })).code).toBe(0);
    expect(spoolBacklog(layout, run)).toBe(1);
    expect(fs.existsSync(layout.timelineFile(run))).toBe(false);
    fs.rmSync(lock);
    expect(hook(root, event(root, "Stop", { stop_hook_active: false })).code).toBe(0);
    expect(readTimelineLines(layout, run).entries.map((e) => e.operation_id ?? e.tool_name)).toEqual(["toolu_held", "session.stop"]);
    expect(spoolBacklog(layout, run)).toBe(0);
  });

  it(`${HOOKS_AT_ONCE} hook processes for one session started at once → ${HOOKS_AT_ONCE} entries with gap-free sequences`, async () => {
    const root = tempWorkspace();
    const layout = new WorkspaceLayout(root);
    const runs = Array.from({ length: HOOKS_AT_ONCE }, (_, i) => runCliAsync(["hook", "claude"], { cwd: root, input: event(root, "PostToolUse", { tool_name: "Read", tool_input: { i }, tool_use_id: `toolu_${i}` }) }));
    for (const r of await Promise.all(runs)) expect(r.code).toBe(0);
    // A hook stopped by its one-second budget leaves its entry in the spool: nothing is lost, and the
    // session's next hook event (here the turn's Stop) appends it.
    const written = fs.existsSync(layout.timelineFile(`claude-${SESSION}`)) ? readTimelineLines(layout, `claude-${SESSION}`).entries.length : 0;
    const hooksLog = path.join(root, ".aop/runtime/hooks.log");
    expect(written + spoolBacklog(layout, `claude-${SESSION}`), fs.existsSync(hooksLog) ? fs.readFileSync(hooksLog, "utf8") : "no hooks.log").toBe(HOOKS_AT_ONCE);
    expect(hook(root, event(root, "Stop", { stop_hook_active: false })).code).toBe(0);
    const lines = readTimelineLines(layout, `claude-${SESSION}`);
    expect(sequences(lines)).toEqual(Array.from({ length: HOOKS_AT_ONCE + 1 }, (_, i) => i));
    const calls = lines.entries.filter((e) => !String(e.tool_name).startsWith("session."));
    expect(new Set(calls.map((e) => e.operation_id)).size).toBe(HOOKS_AT_ONCE);
    expect(lines.entries.at(-1)).toMatchObject({ tool_name: "session.stop" });
  }, 120_000);
});

describe("aop hook claude — never blocks the agent", () => {
  it.each([
    ["malformed JSON", "{not json", /stdin is not JSON/],
    ["empty stdin", "", /empty stdin/],
    ["an event without a name", JSON.stringify({ session_id: "s" }), /no hook_event_name/],
    ["an unknown event", JSON.stringify({ hook_event_name: "TeammateIdle", session_id: "s" }), /ignored: aop does not act on this event/],
  ])("%s → exit 0, nothing on stdout, logged", (_name, input, logged) => {
    const root = tempWorkspace();
    const r = runCli(["hook", "claude"], { cwd: root, input });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(fs.readFileSync(path.join(root, ".aop/runtime/hooks.log"), "utf8")).toMatch(logged);
  });

  it("20 hooks logging at once leave 20 whole lines in hooks.log", async () => {
    const root = tempWorkspace();
    const runs = Array.from({ length: 20 }, (_, i) => runCliAsync(["hook", "claude"], { cwd: root, input: `{broken ${i}` }));
    for (const r of await Promise.all(runs)) expect(r.code).toBe(0);
    const lines = fs.readFileSync(path.join(root, ".aop/runtime/hooks.log"), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(20);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ level: "warning", event: "unknown" });
  }, 60_000);

  it("a timeline that cannot be written → exit 0, logged", () => {
    const root = tempWorkspace();
    writeFile(root, ".aop/runtime/replay", "a file where the folder should be");
    const r = hook(root, event(root, "PostToolUse", { tool_name: "Read", tool_input: {}, tool_use_id: "t" }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(fs.readFileSync(path.join(root, ".aop/runtime/hooks.log"), "utf8")).toMatch(/"level":"error"/);
  });

  it("an agent that stopped reading (stdout closed before the answer): exit 0, silence, and the session start is recorded", async () => {
    const root = tempWorkspace();
    const child = spawn(process.execPath, [CLI_BIN, "hook", "claude"], { cwd: root, env: { ...process.env, AOP_NOW: "2026-07-01T09:00:00.000Z" }, stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.destroy(); // the reading end is gone before the hook writes: its write fails with EPIPE
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
    child.stdin.end(event(root, "SessionStart", { source: "startup" }));
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code, stderr).toBe(0);
    expect(stderr).toBe("");
    const { entries } = readTimelineLines(new WorkspaceLayout(root), `claude-${SESSION}`);
    expect(entries.map((e) => e.tool_name)).toEqual(["session.start"]);
  });

  it("an unwritable .aop/ (a file) → exit 0 and silence", () => {
    const root = tempWorkspace();
    fs.writeFileSync(path.join(root, ".aop"), "not a folder");
    const r = hook(root, event(root, "PostToolUse", { tool_name: "Read", tool_input: {}, tool_use_id: "t" }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
  });
});

describe("aop hook claude — session context", () => {
  const STATE = "# Current State\n\n## Objective\nShip the billing export\n\n## Current Step\nWriting the CSV encoder\n\n## Key Decisions\n- RFC 4180 quoting\n\n## Next Action\nAdd the header row test\n\n## Blockers\nNone\n\n## Unsurfaced Results\n- The export is 3x faster with streaming\n\n---\nNotes after the break are not part of any section.\n";

  it.each(["startup", "resume", "clear", "compact"])("SessionStart (source %s) prints hookSpecificOutput.additionalContext", (source) => {
    const root = tempWorkspace();
    writeFile(root, "memory/CURRENT_STATE.md", STATE);
    writeFile(root, ".checkpoints/architect.checkpoint.json", JSON.stringify(minimalCheckpoint("architect", { updated_at: "2026-07-01T08:00:00.000Z", blockers: [{ id: "b1", description: "Pick Postgres or SQLite", needs: "user_decision" }] })));
    const r = hook(root, event(root, "SessionStart", { source }));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe("SessionStart");
    const text = out.hookSpecificOutput.additionalContext;
    expect(text.indexOf("Decisions waiting on the user")).toBeLessThan(text.indexOf("CURRENT_STATE.md"));
    expect(text).toMatch(/architect: b1 — Pick Postgres or SQLite/);
    expect(text).toMatch(/Objective: Ship the billing export/);
    expect(text).toMatch(/Unsurfaced results: The export is 3x faster with streaming/);
    expect(text).not.toMatch(/Notes after the break/);
    expect(text).toMatch(/Checkpoint architect \(in_progress, build\/write-handlers, 0\/1 done\): next — Write the refund handler; ASK/);
  });

  it("critical doctor findings come before the state", () => {
    const root = tempWorkspace();
    writeFile(root, "memory/CURRENT_STATE.md", STATE);
    writeFile(root, ".aop/features/index.json", JSON.stringify({ version: 1, active: ["ghost"], blocked: [], merged: [], updated_at: "x" }));
    const r = hook(root, event(root, "SessionStart", { source: "startup" }));
    const text = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(text).toMatch(/DRIFT_008_INDEX_STATE_INCONSISTENCY: feature ghost/);
    expect(text.indexOf("DRIFT_008")).toBeLessThan(text.indexOf("Objective"));
  });

  it("stays under the size bound with many checkpoints, most urgent first", () => {
    const root = tempWorkspace();
    for (let i = 0; i < 60; i++) {
      const skill = `skill-${String(i).padStart(2, "0")}`;
      const blockers = i === 42 ? [{ id: "b-urgent", description: "Approve the schema", needs: "user_decision" }] : undefined;
      writeFile(root, `.checkpoints/${skill}.checkpoint.json`, JSON.stringify(minimalCheckpoint(skill, { updated_at: `2026-07-01T0${i % 9}:00:00.000Z`, progress_summary: "x".repeat(900), blockers })));
    }
    const r = hook(root, event(root, "SessionStart", { source: "startup" }));
    const text = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
    expect(text).toMatch(/skill-42: b-urgent — Approve the schema/);
    expect(text).toMatch(/more items? left out for size/);
  });
});

describe("aop hook claude — a session's events through its bundle", () => {
  it("each exits 0 and is recorded in the session's timeline, with and without a policy.yaml", () => {
    const STATE = "# Current State\n\n## Objective\nShip it\n\n## Current Step\nTests\n\n## Key Decisions\n- none\n\n## Next Action\nWrite one\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n";
    for (const policy of [null, "version: 1\nhooks:\n  claude:\n    stop_reminder: block\n"]) {
      const root = tempWorkspace();
      writeFile(root, "memory/CURRENT_STATE.md", STATE);
      writeFile(root, ".checkpoints/architect.checkpoint.json", JSON.stringify(minimalCheckpoint("architect", { updated_at: "2026-07-01T08:00:00.000Z" })));
      if (policy) writeFile(root, "agentic/orchestrator/policy.yaml", policy);
      const run = (input: string) => runCli(["hook", "claude"], { cwd: root, input, env: { AOP_NOW: "2026-07-01T09:00:00.000Z" } });
      const printed = [
        run(event(root, "SessionStart", { source: "startup" })),
        run(event(root, "UserPromptSubmit", { prompt: "go" })),
        run(event(root, "PostToolUse", { tool_name: "Edit", tool_input: { file_path: "a.ts", old_string: "a".repeat(3000), new_string: "b" }, tool_use_id: "toolu_1", duration_ms: 4 })),
        run(event(root, "PostToolUseFailure", { tool_name: "Bash", tool_input: { command: "false" }, tool_use_id: "toolu_2", error: "exit 1", is_interrupt: false })),
        run(event(root, "PreCompact", { trigger: "auto" })),
        run(event(root, "Stop", { stop_hook_active: false })),
        run(event(root, "SessionEnd", { reason: "other" })),
      ];
      const label = policy ?? "no policy.yaml";
      expect(printed.map((r) => [r.code, r.stderr]), label).toEqual(printed.map(() => [0, ""]));
      expect(printed[0]!.stdout, label).toMatch(/"hookEventName":"SessionStart"/);
      const entries = fs
        .readFileSync(path.join(root, ".aop", "runtime", "replay", `claude-${SESSION}.timeline.jsonl`), "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { tool_name: string; result: string });
      expect(entries.map((e) => e.tool_name), label).toEqual(expect.arrayContaining(["Edit", "Bash"]));
      expect(entries.find((e) => e.tool_name === "Bash")!.result, label).toBe("error");
    }
  }, 60_000);
});
