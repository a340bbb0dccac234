// Black-box: the built `aop export otlp` against a real OTLP receiver (@elastic/mockotlpserver) on
// loopback, over OTLP/HTTP protobuf and JSON, and into the OTLP file format.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  AGENT_RUN, AGENT_SPANS, copyFixture, setUpExportTests, cursorFiles, exportCli, exportJson, hookEvent, KERNEL_RUN, SESSION, sha, spanId, SUBAGENT, traceId, VERSION, workspaceIdOf, type ExportFixture,
} from "../../helpers/export-fixture.js";
import { decodeProtobufRequest, freePort, normalizeTrace, settle, spansOf, startFlakyProxy, type ReceivedSpan, type Receiver } from "../../helpers/otlp-receiver.js";
import { tempDir } from "../../helpers/tmp.js";

let receiver: Receiver;
let fixture: ExportFixture;

setUpExportTests((r, f) => {
  receiver = r;
  fixture = f;
});

function byName(spans: ReceivedSpan[]): Map<string, ReceivedSpan> {
  return new Map(spans.map((s) => [s.name, s]));
}

function ids(spans: ReceivedSpan[]): string[] {
  return spans.map((s) => `${s.spanId}<${s.parentSpanId ?? ""}`).sort();
}

describe("aop export otlp — to a real OTLP receiver", () => {
  it.each(["http/protobuf", "http/json"])("sends a Claude Code session as one trace: spans, names, links, attributes, statuses (%s)", async (protocol) => {
    const root = await copyFixture(fixture);
    const before = receiver.requests.length;
    const r = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.base, "--protocol", protocol]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${AGENT_RUN}  trace ${traceId(root, AGENT_RUN)}  sent ${AGENT_SPANS} spans (12 entries seq 0–11, 3 markers among them, 2 gate steps, 2 root/agent) in 1 request`);
    await settle(() => receiver.spans(traceId(root, AGENT_RUN)).length >= AGENT_SPANS); // each copy is a workspace of its own: a trace of its own
    const requests = receiver.requests.slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.contentType).toBe(protocol === "http/json" ? "application/json" : "application/x-protobuf");
    const trace = requests[0]!.trace!;
    expect(trace.resourceSpans).toHaveLength(1);
    expect(trace.resourceSpans[0]!.resource.attributes).toEqual({ "service.name": "aop", "service.version": VERSION });
    expect(trace.resourceSpans[0]!.scopeSpans[0]!.scope).toMatchObject({ name: "aop", version: VERSION });

    const spans = spansOf(trace);
    expect(spans).toHaveLength(AGENT_SPANS);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceId(root, AGENT_RUN)]));
    const named = byName(spans);
    expect([...named.keys()].sort()).toEqual(
      ["invoke_agent claude-code", `invoke_agent ${SUBAGENT.type}`, "UserPromptSubmit", "SubagentStart", "SubagentStop", "execute_tool Read", "execute_tool Grep", "execute_tool Edit", "execute_tool Bash", "execute_tool gates.run", "execute_tool feature.list", "gate_step lint", "gate_step tests", "execute_tool feature.init"].sort(),
    );
    const inits = spans.filter((s) => s.name === "execute_tool feature.init");
    expect(inits).toHaveLength(3);

    const root_ = named.get("invoke_agent claude-code")!;
    expect(root_.parentSpanId).toBeUndefined();
    expect(root_.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "claude-code", "gen_ai.provider.name": "anthropic", "gen_ai.conversation.id": SESSION, "session.id": SESSION, "aop.run_id": AGENT_RUN });
    const agent = named.get(`invoke_agent ${SUBAGENT.type}`)!;
    expect(agent.parentSpanId).toBe(root_.spanId);
    expect(agent.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.id": SUBAGENT.id, "gen_ai.agent.name": SUBAGENT.type });

    // Entry spans: ids from (run, sequence); the subagent's calls under it, the others under the root.
    const read = named.get("execute_tool Read")!;
    expect(read.spanId).toBe(spanId(root, AGENT_RUN, 1));
    expect(read.parentSpanId).toBe(root_.spanId);
    expect(read.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "Read", "gen_ai.tool.type": "function", "gen_ai.tool.call.id": "toolu_01Read", "gen_ai.conversation.id": SESSION, "session.id": SESSION, "aop.actor_type": "agent", "aop.mutating": false });
    expect(Number(read.attributes["aop.sequence"])).toBe(1);
    expect(BigInt(read.endTimeUnixNano) - BigInt(read.startTimeUnixNano)).toBe(12_000_000n);
    for (const name of ["execute_tool Grep", "execute_tool Edit"]) expect(named.get(name)!.parentSpanId).toBe(agent.spanId);
    expect(named.get("execute_tool Grep")!.spanId).toBe(spanId(root, AGENT_RUN, 3));
    expect(BigInt(agent.startTimeUnixNano)).toBeLessThanOrEqual(BigInt(named.get("execute_tool Grep")!.startTimeUnixNano));
    expect(BigInt(agent.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(named.get("execute_tool Edit")!.endTimeUnixNano));

    // Session markers: moments (no duration), the subagent's under it; the prompt only as its hash.
    const prompt = named.get("UserPromptSubmit")!;
    expect(prompt).toMatchObject({ spanId: spanId(root, AGENT_RUN, 0), parentSpanId: root_.spanId, startTimeUnixNano: prompt.endTimeUnixNano, attributes: { "aop.marker": "UserPromptSubmit", "session.id": SESSION } });
    expect(prompt.attributes["aop.request_hash"]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(prompt.attributes).not.toHaveProperty("gen_ai.operation.name");
    for (const name of ["SubagentStart", "SubagentStop"]) expect(named.get(name)!.parentSpanId).toBe(agent.spanId);
    expect(BigInt(agent.startTimeUnixNano)).toBe(BigInt(named.get("SubagentStart")!.startTimeUnixNano));
    expect(BigInt(agent.endTimeUnixNano)).toBe(BigInt(named.get("SubagentStop")!.endTimeUnixNano));
    expect(BigInt(root_.startTimeUnixNano)).toBeLessThanOrEqual(BigInt(prompt.startTimeUnixNano));

    const bash = named.get("execute_tool Bash")!;
    expect(bash.status).toEqual({ code: "STATUS_CODE_ERROR", message: "tool_error" });
    expect(bash.attributes["error.type"]).toBe("tool_error");
    expect(read.status.code).toBe("STATUS_CODE_UNSET");

    // Kernel calls in the same session: a success, its replay, an error.
    const [created, replayed, refused] = inits.sort((a, b) => Number(a.attributes["aop.sequence"]) - Number(b.attributes["aop.sequence"]));
    expect(created!.attributes).toMatchObject({ "gen_ai.tool.call.id": "op-feature-0001", "aop.idempotency_status": "new", "aop.feature_id": "feat_login", "aop.actor_type": "orchestrator", "aop.mutating": true });
    expect(created!.attributes["aop.request_hash"]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(replayed!.attributes).toMatchObject({ "gen_ai.tool.call.id": "op-feature-0001", "aop.idempotency_status": "replay" });
    expect(replayed!.status.code).toBe("STATUS_CODE_UNSET");
    expect(refused!.status).toEqual({ code: "STATUS_CODE_ERROR", message: "feature_already_exists" });
    expect(refused!.attributes["error.type"]).toBe("feature_already_exists");
    for (const s of [created!, replayed!, refused!]) expect(s.attributes).not.toHaveProperty("mcp.method.name");

    // The gate run: the failed gate is an error call (gate_failed); its steps are children, one of them failed.
    const gate = named.get("execute_tool gates.run")!;
    expect(gate.status).toEqual({ code: "STATUS_CODE_ERROR", message: "gate_failed" });
    expect(gate.attributes).toMatchObject({ "error.type": "gate_failed", "aop.gate.mode": "check", "aop.gate.profile": "default", "aop.gate.overall": "fail", "aop.evidence.status": "not_chained" });
    expect(gate.attributes["aop.gate.evidence_path"]).toMatch(/^\.aop\/features\/feat_login\/evidence\/gate-check-\d+\.json$/);
    const lint = named.get("gate_step lint")!;
    const tests = named.get("gate_step tests")!;
    for (const step of [lint, tests]) expect(step.parentSpanId).toBe(gate.spanId);
    expect(lint.status.code).toBe("STATUS_CODE_UNSET");
    expect(Number(lint.attributes["process.exit.code"])).toBe(0);
    expect(tests.status).toEqual({ code: "STATUS_CODE_ERROR", message: "exit code 3" });
    expect(tests.attributes).toMatchObject({ "error.type": "nonzero_exit", "aop.gate.step.name": "tests", "aop.gate.step.timed_out": false });
    expect(Number(tests.attributes["process.exit.code"])).toBe(3);
    expect(tests.attributes["process.command_args"]).toEqual([process.execPath, "-e", "process.exit(3)"]);
    expect(tests.attributes["aop.gate.step.log_sha256"]).toMatch(/^sha256:/);

    // The call served by `aop mcp`.
    const listed = named.get("execute_tool feature.list")!;
    expect(listed.attributes).toMatchObject({ "gen_ai.tool.type": "extension", "mcp.method.name": "tools/call", "network.transport": "pipe", "aop.mutating": false });
    expect(listed.attributes).not.toHaveProperty("gen_ai.tool.call.id");
  });

  it("exports a kernel run as invoke_workflow, and --all covers every run", async () => {
    const root = await copyFixture(fixture);
    const r = await exportJson<{ runs: { run_id: string; spans: number; trace_id: string }[] }>(root, ["--all", "--endpoint", receiver.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.runs.map((x) => [x.run_id, x.spans]).sort()).toEqual([[AGENT_RUN, AGENT_SPANS], [KERNEL_RUN, 3]].sort());
    await settle(() => receiver.spans(traceId(root, KERNEL_RUN)).length >= 3);
    const spans = receiver.spans(traceId(root, KERNEL_RUN)).slice(-3);
    const root_ = spans.find((s) => s.parentSpanId === undefined)!;
    expect(root_).toMatchObject({ name: "invoke_workflow", attributes: { "gen_ai.operation.name": "invoke_workflow", "aop.run_id": KERNEL_RUN } });
    expect(spans.filter((s) => s.parentSpanId === root_.spanId).map((s) => s.name).sort()).toEqual(["execute_tool feature.list", "execute_tool run.status"]);
  });

  it("re-exporting from a fresh cursor yields identical trace and span ids, and identical spans", async () => {
    const root = await copyFixture(fixture);
    const first = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url]);
    expect(first.code, first.stderr).toBe(0);
    await settle();
    const a = receiver.requestsFor(traceId(root, AGENT_RUN)).at(-1)!;
    fs.rmSync(path.join(root, ".aop", "runtime", "export"), { recursive: true });
    const second = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url]);
    expect(second.code, second.stderr).toBe(0);
    await settle(() => receiver.requestsFor(traceId(root, AGENT_RUN)).at(-1) !== a);
    const b = receiver.requestsFor(traceId(root, AGENT_RUN)).at(-1)!;
    expect(ids(spansOf(b))).toEqual(ids(spansOf(a)));
    expect(spansOf(b)).toEqual(spansOf(a));
  });

  it("an incremental export after new entries sends only those, and the cursor file is 0600", async () => {
    const root = await copyFixture(fixture);
    expect((await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url])).code).toBe(0);
    const again = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url]);
    expect(again.stdout).toContain(`${AGENT_RUN}  trace ${traceId(root, AGENT_RUN)}  up to date (next sequence 12)`);
    await settle();
    const seen = receiver.requestsFor(traceId(root, AGENT_RUN)).length;
    hookEvent(root, "PostToolUse", { tool_name: "Write", tool_input: { file_path: "b.ts" }, tool_use_id: "toolu_02Write", duration_ms: 4 });
    hookEvent(root, "PostToolUse", { tool_name: "Glob", tool_input: { pattern: "*" }, tool_use_id: "toolu_02Glob", duration_ms: 2, agent_id: "agent-second", agent_type: "Plan" });
    hookEvent(root, "PostToolUse", { tool_name: "Read", tool_input: { file_path: "c.ts" }, tool_use_id: "toolu_02Read", duration_ms: 2, agent_id: SUBAGENT.id, agent_type: SUBAGENT.type });
    const third = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url]);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toContain("sent 4 spans (3 entries seq 12–14, 1 root/agent) in 1 request");
    await settle(() => receiver.requestsFor(traceId(root, AGENT_RUN)).length > seen);
    const sent = spansOf(receiver.requestsFor(traceId(root, AGENT_RUN)).at(-1)!);
    expect(sent.map((s) => s.name).sort()).toEqual(["execute_tool Glob", "execute_tool Read", "execute_tool Write", "invoke_agent Plan"]);
    const byNameNow = byName(sent);
    expect(byNameNow.get("execute_tool Write")!.spanId).toBe(spanId(root, AGENT_RUN, 12));
    expect(byNameNow.get("execute_tool Glob")!.parentSpanId).toBe(byNameNow.get("invoke_agent Plan")!.spanId);
    // A later call of a subagent already sent nests under the span sent before.
    expect(byNameNow.get("execute_tool Read")!.parentSpanId).toBe(sha(`${workspaceIdOf(root)}:${AGENT_RUN}:agent:${SUBAGENT.id}`).slice(0, 16));
    const [cursor] = cursorFiles(root);
    expect(fs.statSync(path.join(root, ".aop", "runtime", "export", cursor!)).mode & 0o777).toBe(0o600);
  });

  it("a receiver answering 503 then 200 gets every span exactly once", async () => {
    const root = await copyFixture(fixture);
    // Requests 2 and 3 fail: the second batch is retried twice, then delivered.
    const proxy = await startFlakyProxy(receiver.base, new Set([2, 3]), 503);
    try {
      const before = receiver.spans(traceId(root, AGENT_RUN)).length;
      const r = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", proxy.url, "--batch-size", "4"]);
      expect(r.code, r.stderr).toBe(0);
      expect(proxy.answered).toEqual([200, 503, 503, 200, 200]);
      expect(r.stderr).toMatch(/the endpoint answered 503 Service Unavailable: unavailable; retrying in 0\.0 s/);
      expect(r.stdout).toContain(`sent ${AGENT_SPANS} spans (12 entries seq 0–11, 3 markers among them, 2 gate steps, 2 root/agent) in 3 requests · 2 retried`);
      await settle(() => receiver.spans(traceId(root, AGENT_RUN)).length >= before + AGENT_SPANS);
      const got = receiver.spans(traceId(root, AGENT_RUN)).slice(before);
      expect(got).toHaveLength(AGENT_SPANS);
      expect(new Set(got.map((s) => s.spanId)).size).toBe(AGENT_SPANS);
    } finally {
      await proxy.close();
    }
  });

  it("an unreachable endpoint fails with a clear error and leaves the cursor; a later export loses nothing", async () => {
    const root = await copyFixture(fixture);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/v1/traces`;
    const r = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", url], { OTEL_EXPORTER_OTLP_TIMEOUT: "1500" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`error export_failed: the OTLP endpoint ${url.replace(/[./]/g, "\\$&")} could not be reached: connect ECONNREFUSED 127\\.0\\.0\\.1:${port} \\(\\d+ attempts? within the 1\\.5 s export timeout\\)`));
    expect(r.stderr).toMatch(/^hint: check that the receiver is running/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(cursorFiles(root)).toEqual([]);
    // The same URL comes up (a front for the receiver on that port): everything is delivered.
    const proxy = await startFlakyProxy(receiver.base, new Set(), 503, port);
    try {
      const before = receiver.spans(traceId(root, AGENT_RUN)).length;
      const ok = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", url]);
      expect(ok.code, ok.stderr).toBe(0);
      await settle(() => receiver.spans(traceId(root, AGENT_RUN)).length >= before + AGENT_SPANS);
      expect(receiver.spans(traceId(root, AGENT_RUN)).length - before).toBe(AGENT_SPANS);
    } finally {
      await proxy.close();
    }
  });

  it("the OTLP file format parses back to the spans the receiver decoded from protobuf", async () => {
    const root = await copyFixture(fixture);
    const out = path.join(tempDir(), "handover", "traces.jsonl");
    const r = await exportCli(root, ["--all", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${AGENT_RUN}  trace ${traceId(root, AGENT_RUN)}  wrote ${AGENT_SPANS} spans (12 entries seq 0–11, 3 markers among them, 2 gate steps, 2 root/agent) in 1 line`);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    const lines = fs.readFileSync(out, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(2); // one TracesData per run (each fits one batch)
    const fromFile = lines.map((line) => normalizeTrace(JSON.parse(line)));
    const fileAgent = fromFile.find((t) => spansOf(t)[0]!.traceId === traceId(root, AGENT_RUN))!;

    // The same run of the same workspace over protobuf: the bytes on the wire, decoded with the official
    // opentelemetry-proto definitions, and what the receiver itself decoded, hold the same spans as the file.
    const proxy = await startFlakyProxy(receiver.base, new Set());
    let wire: ReturnType<typeof decodeProtobufRequest>;
    try {
      const sent = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", proxy.url, "--protocol", "http/protobuf"]);
      expect(sent.code, sent.stderr).toBe(0);
      expect(proxy.bodies).toHaveLength(1);
      wire = decodeProtobufRequest(proxy.bodies[0]!);
    } finally {
      await proxy.close();
    }
    await settle();
    const received = receiver.requestsFor(traceId(root, AGENT_RUN)).at(-1)!;
    // Integers come back from protobuf as strings: compare through numbers.
    const comparable = (spans: ReceivedSpan[]) => JSON.parse(JSON.stringify(spans, (_k, v: unknown) => (typeof v === "string" && /^\d+$/.test(v) && v.length < 16 ? Number(v) : v))) as unknown;
    expect(spansOf(fileAgent)).toHaveLength(AGENT_SPANS);
    expect(comparable(spansOf(fileAgent))).toEqual(comparable(spansOf(wire)));
    expect(comparable(spansOf(fileAgent))).toEqual(comparable(spansOf(received)));
    expect(fileAgent.resourceSpans[0]!.resource).toEqual(wire.resourceSpans[0]!.resource);

    // A second export appends nothing; a removed hand-over file is written again in full.
    expect((await exportCli(root, ["--all", "--out", out])).stdout).toContain("exported 0 spans from 0 of 2 runs");
    fs.rmSync(out);
    expect((await exportCli(root, ["--all", "--out", out])).code).toBe(0);
    expect(fs.readFileSync(out, "utf8").split("\n").filter(Boolean)).toHaveLength(2);
  });
});
