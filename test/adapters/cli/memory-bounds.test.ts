// Memory stays bounded whatever the input (docs/hardening.md, "Memory"): a timeline line far over the
// 1 MiB line bound is stepped over, never held, by `aop replay`, `aop call replay.timeline_get` and the
// tool over MCP; a dry run of an export writes each request as it is built instead of holding them all.
// Peak RSS is read from the aop process itself as it exits (test/workers/rss-at-exit.cjs).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serializeEntry } from "../../../src/domains/replay/timeline-entry.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { writeLargeRun } from "../../helpers/large-runs.js";
import { sdk2Client } from "../../helpers/mcp-clients.js";
import { CLI_BIN, WORKERS } from "../../helpers/paths.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const MIB = 1024 * 1024;
const BOUND = 250 * MIB;

/**
 * The measured process runs with one bound on V8's young generation on every Node: how far it lets the
 * young generation grow before a scavenge differs between Node lines (a dry run that holds one batch
 * peaked at 300–357 MiB on Node 24, 205 MiB on Node 20, the difference garbage a scavenge collects),
 * which is the runtime's choice, not what aop holds (docs/runtimes.md).
 */
function rssEnv(): { env: Record<string, string>; peak: () => number } {
  const file = path.join(tempDir(), "rss");
  return {
    env: { NODE_OPTIONS: `--max-semi-space-size=8 --require ${path.join(WORKERS, "rss-at-exit.cjs")}`, AOP_TEST_RSS_FILE: file, NO_COLOR: "1" },
    peak: () => Number(fs.readFileSync(file, "utf8")),
  };
}

/** Runs `aop args` with stdout on a pipe read as it comes (kept only as its size and last bytes). */
function runPiped(root: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; bytes: number; tail: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let bytes = 0;
    let tail = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      bytes += d.length;
      tail = (tail + d.toString("utf8")).slice(-64 * 1024);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, bytes, tail, stderr }));
  });
}

const entry = (sequence: number) =>
  serializeEntry({ ts: "2026-03-01T09:00:00.000Z", run_id: "run-long", session_id: "s", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: `op-${sequence}`, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1 }, sequence);

/** Entries 0 and 1, a 100 MiB line, entry 3. */
function timelineWithLongLine(root: string): void {
  const layout = new WorkspaceLayout(root);
  fs.mkdirSync(layout.replayDir, { recursive: true });
  const fd = fs.openSync(layout.timelineFile("run-long"), "w");
  fs.writeSync(fd, entry(0) + entry(1) + '{"sequence":2,"pad":"');
  const block = Buffer.alloc(MIB, "x");
  for (let i = 0; i < 100; i++) fs.writeSync(fd, block);
  fs.writeSync(fd, '"}\n' + entry(3));
  fs.closeSync(fd);
}

describe("a timeline line far over the line bound", () => {
  it("aop replay and aop call replay.timeline_get skip it, show the rest and stay under 250 MiB", async () => {
    const root = tempWorkspace();
    timelineWithLongLine(root);
    const page = rssEnv();
    const shown = await runPiped(root, ["replay", "--run-id", "run-long"], page.env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.tail).toMatch(/3 of 3 matching entries \(seq 0–3\).*1 unreadable line\(s\) skipped/);
    expect(page.peak()).toBeLessThan(BOUND);

    const call = rssEnv();
    const called = await runPiped(root, ["call", "replay.timeline_get", "--args", '{"run_id":"run-long"}', "--json"], call.env);
    expect(called.code, called.stderr).toBe(0);
    expect(called.bytes).toBe(Buffer.byteLength(called.tail));
    expect(JSON.parse(called.tail)).toMatchObject({ ok: true, data: { total_matched: 3, skipped_lines: 1 } });
    expect(call.peak()).toBeLessThan(BOUND);
  }, 120_000);

  it("replay_timeline_get over MCP skips it and the server stays under 250 MiB", async () => {
    const root = tempWorkspace();
    timelineWithLongLine(root);
    const rss = rssEnv();
    const client = await sdk2Client(root, rss.env);
    try {
      const answer = await client.callTool("replay_timeline_get", { run_id: "run-long" });
      expect("value" in answer && answer.value.structuredContent).toMatchObject({ total_matched: 3, skipped_lines: 1 });
    } finally {
      await client.close();
    }
    await expect.poll(() => fs.existsSync(path.dirname(rss.env.AOP_TEST_RSS_FILE!)) && rss.peak(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(rss.peak()).toBeLessThan(BOUND);
  }, 120_000);
});

describe("export otlp --dry-run of a large run", () => {
  it.each([["as text", []], ["as JSON", ["--json"]]])("100,000 entries %s: each request is written as it is built, under 250 MiB", async (_name, extra) => {
    const root = tempWorkspace();
    writeLargeRun(new WorkspaceLayout(root), "run-big", 100_000);
    const rss = rssEnv();
    const r = await runPiped(root, ["export", "otlp", "--run-id", "run-big", "--dry-run", "--endpoint", "http://127.0.0.1:9/v1/traces", ...extra], rss.env);
    expect(r.code, r.stderr).toBe(0);
    if (extra.length > 0) expect(r.tail).toMatch(/"spans": \d{6}\n}\n$/);
    else expect(r.tail).toMatch(/would export \d{6} spans from 1 of 1 run \(dry run/);
    expect(rss.peak()).toBeLessThan(BOUND);
  }, 240_000);
});
