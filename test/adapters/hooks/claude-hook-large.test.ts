// Huge hook events (docs/agents.md, "Events over the read bound"): a 34 MiB PostToolUse on stdin is
// recorded from its other fields, its input marked as not hashed and why; one that cannot be read as an
// event is logged with its true size and reason, never as "empty stdin". Either way the hook exits 0
// within its budget.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { tempWorkspace } from "../../helpers/tmp.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { readSidecarLines, readTimelineLines, SEED_KEYS } from "../../helpers/timeline.js";

const SESSION = "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const MIB = 1024 * 1024;

function hook(root: string, input: string) {
  const started = Date.now();
  const r = runCli(["hook", "claude"], { cwd: root, input, timeoutMs: 20_000 });
  return { ...r, ms: Date.now() - started };
}

function hooksLog(root: string): { level: string; event: string; message: string }[] {
  const file = new WorkspaceLayout(root).hooksLog;
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { level: string; event: string; message: string });
}

describe("aop hook claude — events over the read bound", () => {
  it("a 34 MiB PostToolUse is recorded, its input marked as not hashed because of the bound", () => {
    const root = tempWorkspace();
    // A Write of a 17 MiB file: the content is in the input and again in the response.
    const content = 'const s = "line";\n'.repeat(Math.ceil((17 * MIB) / 18)).slice(0, 17 * MIB);
    const event = JSON.stringify({
      session_id: SESSION, transcript_path: path.join(root, "t.jsonl"), cwd: root, permission_mode: "default", hook_event_name: "PostToolUse",
      tool_name: "Write", tool_input: { file_path: path.join(root, "big.ts"), content }, tool_response: { type: "create", filePath: path.join(root, "big.ts"), content }, tool_use_id: "toolu_big", duration_ms: 42,
    });
    expect(Buffer.byteLength(event)).toBeGreaterThan(34 * MIB);
    const r = hook(root, event);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.ms).toBeLessThan(5_000); // the watchdog ends it at 0.9 s after start; the rest is a loaded machine's start-up
    // The session's next event appends whatever the first one left in the spool (had the budget run out).
    expect(hook(root, JSON.stringify({ session_id: SESSION, transcript_path: path.join(root, "t.jsonl"), cwd: root, hook_event_name: "Stop", stop_hook_active: true })).code).toBe(0);

    const lines = readTimelineLines(new WorkspaceLayout(root), `claude-${SESSION}`);
    const call = lines.entries.find((e) => e.operation_id === "toolu_big");
    expect(call).toMatchObject({ tool_name: "Write", mutating: true, result: "ok", latency_ms: 42, request_hash: null });
    expect(Object.keys(call!)).toEqual(SEED_KEYS);
    // Why it has no hash is kept beside the line, in the run's sidecar (DESIGN §21).
    const extras = readSidecarLines(new WorkspaceLayout(root), `claude-${SESSION}`).find((e) => e.sequence === call!.sequence)!;
    expect(extras.request_hash_skipped).toMatch(new RegExp(`^tool_input not hashed: the event is ${Buffer.byteLength(event)} bytes, over the 32 MiB read bound$`));
    const log = hooksLog(root);
    expect(log.map((l) => l.message).join("\n")).not.toMatch(/empty stdin/);
    expect(log).toContainEqual(expect.objectContaining({ event: "PostToolUse", message: expect.stringMatching(/over the 32 MiB read bound: recorded from its other fields \(tool_input, tool_response not read\)/) }));
  });

  it("34 MiB that is not an event is logged with its size and why, never as empty stdin", () => {
    const root = tempWorkspace();
    const text = "x".repeat(34 * MIB);
    const r = hook(root, text);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(5_000);
    const messages = hooksLog(root).map((l) => l.message);
    expect(messages.join("\n")).not.toMatch(/empty stdin/);
    expect(messages).toContain(`ignored: the event is ${34 * MIB} bytes, over the 32 MiB read bound, and is not a JSON object: not recorded`);
  });
});
