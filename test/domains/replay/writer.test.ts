import fs from "node:fs";
import os from "node:os";
import { describe, expect, it, vi } from "vitest";
import { fixedClock } from "../../../src/core/clock.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { createRuntime } from "../../../src/app/create-runtime.js";
import { TimelineWriter } from "../../../src/domains/replay/timeline-writer.js";
import { readMetaFile } from "../../../src/domains/replay/timeline-scan.js";
import { pruneRuns, readRetention } from "../../../src/domains/replay/run-retention.js";
import { spoolBacklog, spoolEntry } from "../../../src/domains/replay/timeline-spool.js";
import { readEntriesFrom } from "../../../src/domains/replay/timeline-read.js";
import { queryTimeline } from "../../../src/domains/replay/timeline-query.js";
import { ENTRY_KEYS } from "../../../src/domains/replay/timeline-entry.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { readSidecarLines, readTimelineLines, SEED_KEYS, sequences } from "../../helpers/timeline.js";
import { fillDisk, smallDisk } from "../../helpers/full-disk.js";

/** A workspace aop has written to before (.aop/ exists), so read-only calls are recorded too. */
function workspace(policyYaml?: string): WorkspaceLayout {
  const root = tempWorkspace();
  if (policyYaml) writeFile(root, "agentic/orchestrator/policy.yaml", policyYaml);
  const layout = new WorkspaceLayout(root);
  fs.mkdirSync(layout.aopDir);
  return layout;
}

async function runtimeFor(layout: WorkspaceLayout, runId = "run-t", warnings: string[] = []) {
  return createRuntime({ layout, clock: fixedClock("2026-05-05T05:05:05.000Z"), identity: { run_id: runId, actor: "orchestrator" }, warn: (m) => warnings.push(m) });
}

const SCRIPT: [string, Record<string, unknown>][] = [
  ["feature.list", {}],
  ["feature.init", { feature_id: "a", operation_id: "op-det-00001" }],
  ["feature.init", { feature_id: "a", operation_id: "op-det-00001" }],
  ["feature.init", { feature_id: "b", operation_id: "op-det-00001" }],
  ["feature.get", { feature_id: "ghost" }],
  ["feature.set_status", { feature_id: "a", status: "blocked", operation_id: "op-det-00002" }],
  ["unknown.tool", {}],
];

describe("timeline writer", () => {
  it("records every call — success, failure, replay and mismatch — with sequences from 0", async () => {
    const layout = workspace();
    const runtime = await runtimeFor(layout);
    for (const [tool, args] of SCRIPT) await runtime.callTool(tool, args);
    const lines = readTimelineLines(layout, "run-t");
    expect(sequences(lines)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(lines.entries.map((e) => [e.tool_name, e.result, e.idempotency_status, e.error_code])).toEqual([
      ["feature.list", "ok", "none", null],
      ["feature.init", "ok", "new", null],
      ["feature.init", "ok", "replay", null],
      ["feature.init", "error", "mismatch", "operation_id_reuse_mismatch"],
      ["feature.get", "error", "none", "feature_not_found"],
      ["feature.set_status", "ok", "new", null],
      ["unknown.tool", "error", "none", "unknown_tool"],
    ]);
    expect(fs.statSync(layout.timelineFile("run-t")).mode & 0o777).toBe(0o600);
  });

  it("a read-only call in a workspace aop never wrote to records nothing (no .aop/ appears); a mutating one does", async () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    const runtime = await runtimeFor(layout);
    await runtime.callTool("feature.list", {});
    expect(fs.existsSync(layout.aopDir)).toBe(false);
    await runtime.callTool("feature.init", { feature_id: "a", operation_id: "op-fresh-0001" });
    await runtime.callTool("feature.list", {});
    expect(readTimelineLines(layout, "run-t").entries.map((e) => e.tool_name)).toEqual(["feature.init", "feature.list"]);
  });

  it("is deterministic: the same script in two fresh workspaces gives identical lines without ts and latency_ms", async () => {
    const strip = (layout: WorkspaceLayout) => readTimelineLines(layout, "run-t").entries.map(({ ts: _ts, latency_ms: _l, ...rest }) => JSON.stringify(rest));
    const a = workspace();
    const b = workspace();
    for (const layout of [a, b]) {
      const runtime = await runtimeFor(layout);
      for (const [tool, args] of SCRIPT) await runtime.callTool(tool, args);
    }
    expect(strip(a)).toEqual(strip(b));
    expect(strip(a)).toHaveLength(SCRIPT.length);
  });

  it("keeps the meta in line with the file", async () => {
    const layout = workspace();
    const runtime = await runtimeFor(layout);
    for (const [tool, args] of SCRIPT) await runtime.callTool(tool, args);
    await new Promise((r) => setImmediate(r));
    const meta = readMetaFile(layout, "run-t")!;
    expect(meta).toMatchObject({ run_id: "run-t", sequence_head: 6, entry_count: 7, error_count: 3, file_size: fs.statSync(layout.timelineFile("run-t")).size, started_at: "2026-05-05T05:05:05.000Z" });
  });

  it("writes nothing when either toggle is off", async () => {
    for (const policy of ["innovation:\n  replay_debugger: false\n", "observability:\n  replay:\n    enabled: false\n"]) {
      const layout = workspace(policy);
      const runtime = await runtimeFor(layout);
      await runtime.callTool("feature.list", {});
      expect(fs.existsSync(layout.timelineFile("run-t"))).toBe(false);
    }
  });

  describe("with an unwritable replay directory", () => {
    const unwritable = (mode: string) => {
      const layout = workspace(`observability:\n  replay:\n    write_mode: ${mode}\n`);
      fs.mkdirSync(layout.runtimeDir, { recursive: true });
      fs.writeFileSync(layout.replayDir, "not a directory"); // works even as root, unlike chmod
      return layout;
    };

    it("required: the call fails with replay_timeline_write_failed", async () => {
      const runtime = await runtimeFor(unwritable("required"));
      const r = await runtime.callTool("feature.list", {});
      expect(r.envelope).toMatchObject({ ok: false, error: { code: "replay_timeline_write_failed" } });
    });

    it("required: the message and details agree on the call's own outcome, success or failure", async () => {
      const runtime = await runtimeFor(unwritable("required"));
      const ok = await runtime.callTool("feature.list", {});
      expect(ok.envelope).toMatchObject({ ok: false, error: { details: { completed: true, timeline_written: false } } });
      expect(!ok.envelope.ok && ok.envelope.error.message).toMatch(/^feature\.list succeeded \(its effect is in place\), but its timeline entry could not be written: /);
      const failed = await runtime.callTool("feature.get", { feature_id: "ghost" });
      expect(failed.envelope).toMatchObject({ ok: false, error: { details: { completed: false, timeline_written: false, call_error: { code: "feature_not_found" } } } });
      expect(!failed.envelope.ok && failed.envelope.error.message).toMatch(/^feature\.get failed with feature_not_found, but its timeline entry could not be written: /);
      expect(!failed.envelope.ok && failed.envelope.error.message).not.toMatch(/completed/);
    });

    it("best_effort: the call succeeds and a warning is logged", async () => {
      const warnings: string[] = [];
      const runtime = await runtimeFor(unwritable("best_effort"), "run-t", warnings);
      const r = await runtime.callTool("feature.list", {});
      expect(r.envelope.ok).toBe(true);
      expect(warnings.join("\n")).toMatch(/could not write the timeline entry for feature.list in run run-t/);
    });
  });

  it("max_entries_per_run keeps the first entries and counts every dropped one in the meta", async () => {
    const layout = workspace("observability:\n  replay:\n    retention:\n      max_entries_per_run: 3\n");
    const runtime = await runtimeFor(layout);
    for (let i = 0; i < 5; i++) await runtime.callTool("feature.list", {});
    expect(sequences(readTimelineLines(layout, "run-t"))).toEqual([0, 1, 2]);
    expect(readMetaFile(layout, "run-t")).toMatchObject({ entry_count: 3, dropped_entries: 2, first_dropped_at: "2026-05-05T05:05:05.000Z" });
  });

  it("max_runs keeps the newest runs by started_at and records the pruned ones", async () => {
    const layout = workspace("observability:\n  replay:\n    retention:\n      max_runs: 2\n");
    const clock = fixedClock("2026-01-01T00:00:00.000Z");
    for (const run of ["r1", "r2", "r3", "r4"]) {
      clock.advance(60_000);
      const runtime = await createRuntime({ layout, clock, identity: { run_id: run }, warn: () => undefined });
      await runtime.callTool("feature.list", {});
      await runtime.callTool("feature.list", {});
    }
    const remaining = fs.readdirSync(layout.replayDir).filter((f) => f.endsWith(".timeline.jsonl")).sort();
    expect(remaining).toEqual(["r3.timeline.jsonl", "r4.timeline.jsonl"]);
    const retention = readRetention(layout);
    expect(retention).toMatchObject({ pruned_runs: 2, pruned_entries: 4 });
    expect(retention.recent.map((r) => r.run_id)).toEqual(["r2", "r1"]);
  });

  it("max_runs: while the runs fit, pruning reads no timeline (an upstream run without our meta would be read whole)", async () => {
    const layout = workspace();
    const unreadable = layout.timelineFile("run:unreadable");
    fs.mkdirSync(unreadable, { recursive: true }); // a reader opens it and refuses it
    const opened = vi.spyOn(fs, "openSync");
    const opensOfIt = () => opened.mock.calls.filter(([file]) => file === unreadable).length;
    try {
      expect(await pruneRuns(layout, 5, "run-t", "2026-05-05T05:05:05.000Z")).toEqual([]);
      expect(opensOfIt()).toBe(0);
      // Once a run must go, the runs are read; one that cannot be read is never removed.
      expect(await pruneRuns(layout, 0, "run-t", "2026-05-05T05:05:05.000Z")).toEqual([]);
      expect(opensOfIt()).toBeGreaterThan(0);
      expect(fs.statSync(unreadable).isDirectory()).toBe(true);
    } finally {
      opened.mockRestore();
    }
  });

  it("repairs a torn last line: terminates it, counts it and continues with the next unused sequence", async () => {
    const layout = workspace();
    const writer = new TimelineWriter(layout, () => 1000);
    const entry = { ts: "t", run_id: "run-x", session_id: "run-x", actor_type: "system", feature_id: null, tool_name: "x.y", mutating: false, operation_id: null, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 };
    await writer.append(entry);
    await writer.append(entry);
    writer.close();
    fs.appendFileSync(layout.timelineFile("run-x"), '{"ts":"t","sequence":2,"run_');
    const next = new TimelineWriter(layout, () => 1000);
    expect((await next.append(entry)).sequence).toBe(2);
    next.close();
    const lines = readTimelineLines(layout, "run-x");
    expect(sequences(lines)).toEqual([0, 1, 2]);
    expect(lines.unparseable).toBe(1);
    expect(lines.tornTail).toBe(false);
    expect(readMetaFile(layout, "run-x")).toMatchObject({ repaired_torn_lines: 1, skipped_lines: 1, sequence_head: 2 });
  });

  it("appends spooled entries (written without the lock) before its own, in spool order, then removes them", async () => {
    const layout = workspace();
    const entry = (op: string) => ({ ts: "2026-01-01T00:00:00.000Z", run_id: "run-s", session_id: "run-s", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: op, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 });
    spoolEntry(layout, entry("spooled-1"));
    spoolEntry(layout, entry("spooled-2"));
    fs.writeFileSync(layout.timelineSpoolFile("run-s", "999999999999999-1-bad.json"), "{torn");
    const writer = new TimelineWriter(layout, () => 1000);
    expect((await writer.append(entry("own"))).sequence).toBe(2);
    writer.close();
    expect(readTimelineLines(layout, "run-s").entries.map((e) => e.operation_id)).toEqual(["spooled-1", "spooled-2", "own"]);
    expect(spoolBacklog(layout, "run-s")).toBe(0);
    expect(readMetaFile(layout, "run-s")).toMatchObject({ spool_rejected: 1, entry_count: 3 });
  });

  it("keeps an entry's extras (subagent, transport, ext) through the spool in the sidecar, never in the line, and joins them back from a sequence on", async () => {
    const layout = workspace();
    const entry = (op: string, context: object) => ({ ts: "2026-01-01T00:00:00.000Z", run_id: "run-c", session_id: "s", actor_type: "agent", feature_id: null, tool_name: "Grep", mutating: false, operation_id: op, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1, ...context });
    spoolEntry(layout, entry("sub-1", { agent_id: "agent-1", agent_type: "Explore", ext: { tool_use_id: "toolu_1", client: "claude" } }));
    const writer = new TimelineWriter(layout, () => 1000);
    await writer.append(entry("mcp-1", { transport: "mcp" }));
    await writer.append(entry("plain", {}));
    writer.close();
    const lines = readTimelineLines(layout, "run-c").entries;
    for (const line of lines) expect(Object.keys(line)).toEqual(SEED_KEYS);
    expect(lines.map((e) => e.operation_id)).toEqual(["sub-1", "mcp-1", "plain"]);
    expect(readSidecarLines(layout, "run-c")).toEqual([
      { sequence: 0, agent_id: "agent-1", agent_type: "Explore", tool_use_id: "toolu_1", client: "claude" },
      { sequence: 1, transport: "mcp" },
    ]);
    const read = [];
    for await (const e of readEntriesFrom(layout, "run-c", 0)) read.push(e);
    expect(read.map((e) => [e.sequence, e.operation_id, e.agent_id, e.transport, e.ext])).toEqual([[0, "sub-1", "agent-1", undefined, { tool_use_id: "toolu_1", client: "claude" }], [1, "mcp-1", undefined, "mcp", undefined], [2, "plain", undefined, undefined, undefined]]);
    // replay.timeline_get returns them too, after the contract's keys.
    const page = await queryTimeline(layout, { run_id: "run-c" });
    expect(page.entries.map((e) => Object.keys(e).slice(ENTRY_KEYS.length))).toEqual([["agent_id", "agent_type", "ext"], ["transport"], []]);
    // A damaged sidecar loses extras, never entries.
    fs.writeFileSync(layout.timelineExt("run-c"), '{"sequence":1,"transport":"mcp"}\n{torn');
    const damaged = await queryTimeline(layout, { run_id: "run-c" });
    expect(damaged.entries.map((e) => [e.sequence, e.agent_id, e.transport])).toEqual([[0, undefined, undefined], [1, undefined, "mcp"], [2, undefined, undefined]]);
    fs.rmSync(layout.timelineExt("run-c"));
    expect((await queryTimeline(layout, { run_id: "run-c" })).entries.map((e) => Object.keys(e))).toEqual([ENTRY_KEYS, ENTRY_KEYS, ENTRY_KEYS]);
  });

  it("reads from a sequence on in increasing order, once each, even through a damaged file", async () => {
    const layout = workspace();
    const line = (seq: number) => JSON.stringify({ ts: "2026-01-01T00:00:00.000Z", sequence: seq, run_id: "run-d", tool_name: "t" });
    fs.mkdirSync(layout.replayDir, { recursive: true });
    fs.writeFileSync(layout.timelineFile("run-d"), [line(0), line(1), "{torn", line(1), line(3), line(2), line(4)].join("\n") + "\n" + line(5).slice(0, 10));
    const read = [];
    for await (const e of readEntriesFrom(layout, "run-d", 1)) read.push(e.sequence);
    expect(read).toEqual([1, 3, 4]);
  });

  it("catches up when the meta is behind the file (never reusing a sequence)", async () => {
    const layout = workspace();
    const entry = { ts: "t", run_id: "run-m", session_id: "run-m", actor_type: "system", feature_id: null, tool_name: "x.y", mutating: false, operation_id: null, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 };
    const w1 = new TimelineWriter(layout, () => 1000);
    await w1.append(entry);
    w1.close();
    const staleMeta = fs.readFileSync(layout.timelineMeta("run-m"));
    const w2 = new TimelineWriter(layout, () => 1000);
    await w2.append(entry);
    await w2.append(entry);
    w2.close();
    fs.writeFileSync(layout.timelineMeta("run-m"), staleMeta);
    const w3 = new TimelineWriter(layout, () => 1000);
    expect((await w3.append(entry)).sequence).toBe(3);
    w3.close();
    expect(readMetaFile(layout, "run-m")).toMatchObject({ sequence_head: 3, entry_count: 4 });
  });

  describe("trusts the file, not the meta", () => {
    const entry = { ts: "t", run_id: "run-p", session_id: "run-p", actor_type: "system", feature_id: null, tool_name: "x.y", mutating: false, operation_id: null, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 };
    async function threeEntries(): Promise<WorkspaceLayout> {
      const layout = workspace();
      const writer = new TimelineWriter(layout, () => 1000);
      for (let i = 0; i < 3; i++) await writer.append(entry);
      writer.close();
      return layout;
    }
    const metaOf = (layout: WorkspaceLayout) => JSON.parse(fs.readFileSync(layout.timelineMeta("run-p"), "utf8")) as Record<string, unknown>;

    it.each([
      ["a poisoned sequence_head in our own meta (file_size still right)", (m: Record<string, unknown>) => ({ ...m, sequence_head: 999, entry_count: 1000 })],
      ["a meta with only the contract's five fields, poisoned", (m: Record<string, unknown>) => ({ run_id: m.run_id, sequence_head: 999, entry_count: 1000, started_at: m.started_at, last_entry_at: m.last_entry_at })],
      ["a meta with only the contract's five fields, sound", (m: Record<string, unknown>) => ({ run_id: m.run_id, sequence_head: 2, entry_count: 3, started_at: m.started_at, last_entry_at: m.last_entry_at })],
      ["a meta of another run", (m: Record<string, unknown>) => ({ ...m, run_id: "run-other" })],
      ["a meta that is not JSON", () => "{oops"],
    ])("%s: the next entry gets sequence 3 and the meta is rebuilt from the file", async (_name, poison) => {
      const layout = await threeEntries();
      const poisoned = poison(metaOf(layout));
      fs.writeFileSync(layout.timelineMeta("run-p"), typeof poisoned === "string" ? poisoned : JSON.stringify(poisoned, null, 2));
      const writer = new TimelineWriter(layout, () => 1000);
      expect((await writer.append(entry)).sequence).toBe(3);
      writer.close();
      expect(sequences(readTimelineLines(layout, "run-p"))).toEqual([0, 1, 2, 3]);
      expect(metaOf(layout)).toMatchObject({ run_id: "run-p", sequence_head: 3, entry_count: 4, file_size: fs.statSync(layout.timelineFile("run-p")).size, sequence_anomalies: 0 });
    });
  });

  it("after one failed write the lock is given back and the rest of the queue is written, gap-free", async () => {
    const layout = workspace();
    const entry = (op: string) => ({ ts: "2026-01-01T00:00:00.000Z", run_id: "run-f", session_id: "run-f", actor_type: "system", feature_id: null, tool_name: "x.y", mutating: false, operation_id: op, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 });
    const writer = new TimelineWriter(layout, () => 1000);
    // A value JSON cannot hold makes that one entry's write fail; the three queued with it must not.
    const poisoned = { ...entry("bad"), ts: 10n as unknown as string };
    const outcomes = await Promise.allSettled([writer.append(entry("a")), writer.append(poisoned), writer.append(entry("b")), writer.append(entry("c"))]);
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value.sequence : "failed"))).toEqual([0, "failed", 1, 2]);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).not.toMatch(/Cannot read properties of null/);
    expect((await writer.append(entry("d"))).sequence).toBe(3);
    writer.close();
    expect(fs.existsSync(layout.lockFor(layout.timelineFile("run-f")))).toBe(false);
    const lines = readTimelineLines(layout, "run-f");
    expect(lines.entries.map((e) => e.operation_id)).toEqual(["a", "b", "c", "d"]);
    expect(sequences(lines)).toEqual([0, 1, 2, 3]);
    expect(readMetaFile(layout, "run-f")).toMatchObject({ sequence_head: 3, entry_count: 4 });
  });

  it("appendIfUnlocked: with the run's lock free, appends behind the spool; with it held by another live process, writes nothing", async () => {
    const layout = workspace();
    const entry = (op: string) => ({ ts: "2026-01-01T00:00:00.000Z", run_id: "run-u", session_id: "run-u", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: op, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 });
    spoolEntry(layout, entry("spooled"));
    const writer = new TimelineWriter(layout, () => 1000);
    expect(await writer.appendIfUnlocked(entry("direct"))).toEqual({ sequence: 1, createdRun: true });
    writer.close();
    expect(readTimelineLines(layout, "run-u").entries.map((e) => e.operation_id)).toEqual(["spooled", "direct"]);
    expect(spoolBacklog(layout, "run-u")).toBe(0);

    // A holder that is alive (our parent process) is never reclaimed: nothing is written, nothing waited for.
    const lock = `${layout.timelineFile("run-u")}.lock`;
    fs.writeFileSync(lock, JSON.stringify({ pid: process.ppid, hostname: os.hostname(), acquired_at: new Date().toISOString(), token: "other" }));
    const blocked = new TimelineWriter(layout, () => 1000);
    expect(await blocked.appendIfUnlocked(entry("blocked"))).toBeNull(); // at once: the lock's own timeout is 20 s
    blocked.close();
    expect(fs.readFileSync(lock, "utf8")).toContain('"token":"other"');
    expect(readTimelineLines(layout, "run-u").entries).toHaveLength(2);
    expect(readMetaFile(layout, "run-u")).toMatchObject({ sequence_head: 1, entry_count: 2 });
  });

  it("a timeline removed under a live writer: the next entry starts a new file from sequence 0, none goes to the removed one", async () => {
    const layout = workspace();
    const runtime = await runtimeFor(layout);
    await runtime.callTool("feature.init", { feature_id: "a", operation_id: "op-gone-00001" });
    await runtime.callTool("feature.list", {});
    await new Promise((r) => setImmediate(r));
    fs.rmSync(layout.replayDir, { recursive: true });
    await runtime.callTool("feature.get", { feature_id: "a" });
    await new Promise((r) => setImmediate(r));
    const { entries } = readTimelineLines(layout, "run-t");
    expect(entries.map((e) => [e.sequence, e.tool_name])).toEqual([[0, "feature.get"]]);
    expect(readMetaFile(layout, "run-t")).toMatchObject({ sequence_head: 0, entry_count: 1, file_size: fs.statSync(layout.timelineFile("run-t")).size });
  });

  it("a workspace removed under a live writer is not created again: the entry fails with workspace_not_found, and closing writes nothing", async () => {
    const layout = workspace();
    const writer = new TimelineWriter(layout, () => 1000);
    const entry = { ts: "2026-01-01T00:00:00.000Z", run_id: "run-g", session_id: "run-g", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: null, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 };
    await writer.append(entry);
    await new Promise((r) => setImmediate(r)); // the writer gives its lock back
    fs.rmSync(layout.root, { recursive: true });
    await expect(writer.append(entry)).rejects.toMatchObject({ code: "workspace_not_found" });
    writer.close();
    expect(fs.existsSync(layout.root)).toBe(false);
  });

  it("a drained spool leaves no folder behind", async () => {
    const layout = workspace();
    const entry = { ts: "2026-01-01T00:00:00.000Z", run_id: "run-d", session_id: "run-d", actor_type: "agent", feature_id: null, tool_name: "Read", mutating: false, operation_id: null, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 };
    spoolEntry(layout, entry);
    expect(fs.existsSync(layout.timelineSpoolDir("run-d"))).toBe(true);
    const writer = new TimelineWriter(layout, () => 1000);
    await writer.flush("run-d");
    writer.close();
    expect(fs.existsSync(layout.timelineSpoolDir("run-d"))).toBe(false);
    expect(readTimelineLines(layout, "run-d").entries).toHaveLength(1);
  });
});

describe("required write mode on a full disk", () => {
  const disk = smallDisk();
  it.skipIf("skip" in disk)(`says what happened to the call and to its entry${"skip" in disk ? ` (skipped: ${disk.skip})` : ""}`, async () => {
    const root = (disk as { dir: string }).dir;
    fs.mkdirSync(`${root}/.git`);
    writeFile(root, "agentic/orchestrator/policy.yaml", "observability:\n  replay:\n    write_mode: required\n");
    const layout = new WorkspaceLayout(root);
    fs.mkdirSync(layout.aopDir); // a workspace aop wrote to: read-only calls are recorded
    const runtime = await runtimeFor(layout);
    expect((await runtime.callTool("feature.list", {})).envelope.ok).toBe(true); // the timeline file exists
    await new Promise((r) => setImmediate(r)); // the writer has released the run's lock and written its meta
    fillDisk(root);
    const r = await runtime.callTool("feature.list", {});
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "replay_timeline_write_failed", details: { completed: true, timeline_written: false } } });
    expect(!r.envelope.ok && r.envelope.error.message).toMatch(/^feature\.list succeeded \(its effect is in place\), but its timeline entry could not be written: .*ENOSPC/);
  });

  const disk2 = smallDisk();
  it.skipIf("skip" in disk2)("a meta that cannot be written when the lock is released loses no entry and does not end the process", async () => {
    const layout = new WorkspaceLayout((disk2 as { dir: string }).dir);
    const entry = { ts: "t", run_id: "run-f", session_id: "run-f", actor_type: "system", feature_id: null, tool_name: "x.y", mutating: false, operation_id: null, idempotency_status: "none" as const, request_hash: null, result: "ok" as const, error_code: null, latency_ms: 1 };
    const writer = new TimelineWriter(layout, () => 1000);
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => void uncaught.push(err);
    process.on("uncaughtException", onUncaught);
    try {
      await writer.append(entry);
      fillDisk(layout.root); // while the writer still holds the run's lock: the next line fits the file's last page, its meta does not
      expect((await writer.append(entry)).sequence).toBe(1);
      await new Promise((r) => setTimeout(r, 20)); // the release (and its failed meta write) has happened
      expect(uncaught).toEqual([]);
      expect(sequences(readTimelineLines(layout, "run-f"))).toEqual([0, 1]);
    } finally {
      process.off("uncaughtException", onUncaught);
      writer.close();
      fs.rmSync(`${layout.root}/filler`, { force: true });
    }
  });
});
