import { describe, expect, it } from "vitest";
import type { TimelineEntry } from "../../../src/domains/replay/index.js";
import type { GateEvidenceView } from "../../../src/domains/export/gate-spans.js";
import { emptyEnvelopes, RunSpanBuilder, type GateEvidenceLookup } from "../../../src/domains/export/run-spans.js";
import { agentSpanId, entrySpanId, rootSpanId, stepSpanId, traceIdFor } from "../../../src/domains/export/span-ids.js";

const T0 = Date.parse("2026-05-01T10:00:00.000Z");
const WS = "0123456789abcdef0123456789abcdef";

function entry(sequence: number, extra: Partial<TimelineEntry> = {}): TimelineEntry {
  return {
    ts: new Date(T0 + sequence * 1000).toISOString(), sequence, run_id: "run:k", session_id: "run:k", actor_type: "orchestrator", feature_id: null,
    tool_name: "feature.list", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 250, ...extra,
  };
}

const noEvidence: GateEvidenceLookup = () => null;

describe("entry spans", () => {
  it("an in-process kernel call: execute_tool {tool}, end = ts, start = ts − latency, gen_ai.* and aop.* attributes", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence);
    const [span] = b.add(entry(3, { tool_name: "feature.init", mutating: true, operation_id: "op-12345678", idempotency_status: "new", feature_id: "f", request_hash: "sha256:" + "a".repeat(64), session_id: "sess" }));
    expect(span).toEqual({
      traceId: traceIdFor(WS, "run:k"), spanId: entrySpanId(WS, "run:k", 3), parentSpanId: rootSpanId(WS, "run:k"), name: "execute_tool feature.init",
      startMs: T0 + 3000 - 250, endMs: T0 + 3000, error: null,
      attributes: {
        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "feature.init", "gen_ai.tool.type": "function", "gen_ai.tool.call.id": "op-12345678",
        "gen_ai.conversation.id": "sess", "session.id": "sess", "aop.sequence": 3, "aop.feature_id": "f", "aop.actor_type": "orchestrator", "aop.mutating": true,
        "aop.idempotency_status": "new", "aop.request_hash": "sha256:" + "a".repeat(64),
      },
    });
  });

  it("a call served by aop mcp is an extension tool with mcp.method.name and network.transport", () => {
    const [span] = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence).add(entry(0, { transport: "mcp" }));
    expect(span!.attributes).toMatchObject({ "gen_ai.tool.type": "extension", "mcp.method.name": "tools/call", "network.transport": "pipe" });
  });

  it("a Claude Code MCP tool (mcp__server__tool) is an extension, without the server-side MCP attributes", () => {
    const [span] = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence).add(entry(0, { tool_name: "mcp__github__create_issue" }));
    expect(span!.attributes["gen_ai.tool.type"]).toBe("extension");
    expect(span!.attributes).not.toHaveProperty("mcp.method.name");
  });

  it("an error sets error.type and the ERROR status; an error without a code is _OTHER", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence);
    const [a] = b.add(entry(0, { result: "error", error_code: "feature_not_found" }));
    const [c] = b.add(entry(1, { result: "error", error_code: null }));
    expect([a!.error, a!.attributes["error.type"]]).toEqual(["feature_not_found", "feature_not_found"]);
    expect([c!.error, c!.attributes["error.type"]]).toEqual(["error", "_OTHER"]);
  });

  it("a hook's shell call carries its exit status (from the sidecar) as process.exit.code", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence);
    const [failed] = b.add(entry(0, { tool_name: "Bash", result: "error", error_code: "command_exit_nonzero", ext: { client: "codex", exit_status: 3 } }));
    const [fine] = b.add(entry(1, { tool_name: "Bash", ext: { client: "codex", exit_status: 0 } }));
    const [none] = b.add(entry(2, { tool_name: "Bash", ext: { client: "codex", exit_status: "3" } }));
    expect([failed!.error, failed!.attributes["error.type"], failed!.attributes["process.exit.code"]]).toEqual(["command_exit_nonzero", "command_exit_nonzero", 3]);
    expect(fine!.attributes["process.exit.code"]).toBe(0);
    expect(none!.attributes).not.toHaveProperty("process.exit.code");
  });

  it("an entry whose ts is not a time is left out and counted; a negative or absent latency is 0", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence);
    expect(b.add(entry(0, { ts: "" }))).toEqual([]);
    expect(b.unplaced).toBe(1);
    const [span] = b.add(entry(1, { latency_ms: -5 }));
    expect(span!.startMs).toBe(span!.endMs);
  });
});

describe("the enclosing spans", () => {
  it("a kernel run's root is invoke_workflow over all its entries, sent once", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence);
    b.add(entry(0));
    b.add(entry(5));
    const [root] = b.pendingEnvelopes();
    expect(root).toMatchObject({ spanId: rootSpanId(WS, "run:k"), parentSpanId: null, name: "invoke_workflow", startMs: T0 - 250, endMs: T0 + 5000 });
    expect(root!.attributes).toEqual({ "aop.run_id": "run:k", "gen_ai.operation.name": "invoke_workflow" });
    const next = new RunSpanBuilder(WS, "run:k", b.stateAfterSending(), noEvidence);
    next.add(entry(6));
    expect(next.pendingEnvelopes()).toEqual([]);
  });

  it("an agent session's root is invoke_agent with the conversation id; subagent calls nest under invoke_agent {agent_type}", () => {
    const b = new RunSpanBuilder(WS, "claude-s1", emptyEnvelopes(), noEvidence);
    const base = { run_id: "claude-s1", actor_type: "agent", session_id: "s1" };
    const [main] = b.add(entry(0, base));
    const [sub1] = b.add(entry(1, { ...base, agent_id: "a-1", agent_type: "Explore" }));
    const [sub2] = b.add(entry(2, { ...base, agent_id: "a-1", agent_type: "Explore", latency_ms: 10 }));
    expect(main!.parentSpanId).toBe(rootSpanId(WS, "claude-s1"));
    expect([sub1!.parentSpanId, sub2!.parentSpanId]).toEqual([agentSpanId(WS, "claude-s1", "a-1"), agentSpanId(WS, "claude-s1", "a-1")]);
    const [root, agent] = b.pendingEnvelopes();
    expect(root).toMatchObject({ name: "invoke_agent claude-code", attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": "s1", "gen_ai.agent.name": "claude-code", "gen_ai.provider.name": "anthropic" } });
    expect(agent).toMatchObject({ name: "invoke_agent Explore", parentSpanId: rootSpanId(WS, "claude-s1"), startMs: T0 + 1000 - 250, endMs: T0 + 2000, attributes: { "gen_ai.agent.id": "a-1", "gen_ai.agent.name": "Explore", "gen_ai.conversation.id": "s1" } });
  });

  it("an agent already sent is not sent again; a new one is", () => {
    const b = new RunSpanBuilder(WS, "claude-s1", emptyEnvelopes(), noEvidence);
    b.add(entry(0, { actor_type: "agent", agent_id: "a-1", agent_type: "Explore" }));
    const later = new RunSpanBuilder(WS, "claude-s1", b.stateAfterSending(), noEvidence);
    const [again] = later.add(entry(1, { actor_type: "agent", agent_id: "a-1", agent_type: "Explore" }));
    later.add(entry(2, { actor_type: "agent", agent_id: "a-2" }));
    expect(again!.parentSpanId).toBe(agentSpanId(WS, "claude-s1", "a-1"));
    expect(later.pendingEnvelopes().map((s) => s.name)).toEqual(["invoke_agent"]);
  });
});

describe("session markers", () => {
  it("a marker is a span of no duration named by its label, under its subagent when it has one, widening the windows", () => {
    const b = new RunSpanBuilder(WS, "claude-s1", emptyEnvelopes(), noEvidence);
    const base = { run_id: "claude-s1", actor_type: "agent", session_id: "s1", latency_ms: 0 };
    const [prompt] = b.add(entry(0, { ...base, tool_name: "UserPromptSubmit", marker: "UserPromptSubmit", request_hash: "sha256:" + "c".repeat(64) }));
    const [start] = b.add(entry(1, { ...base, tool_name: "SubagentStart", marker: "SubagentStart", agent_id: "a-1", agent_type: "Explore" }));
    b.add(entry(2, { ...base, tool_name: "Grep", agent_id: "a-1", agent_type: "Explore", latency_ms: 100 }));
    b.add(entry(3, { ...base, tool_name: "SubagentStop", marker: "SubagentStop", agent_id: "a-1", agent_type: "" }));
    expect(prompt).toEqual({
      traceId: traceIdFor(WS, "claude-s1"), spanId: entrySpanId(WS, "claude-s1", 0), parentSpanId: rootSpanId(WS, "claude-s1"), name: "UserPromptSubmit", startMs: T0, endMs: T0, error: null,
      attributes: { "aop.marker": "UserPromptSubmit", "gen_ai.conversation.id": "s1", "session.id": "s1", "aop.sequence": 0, "aop.actor_type": "agent", "aop.request_hash": "sha256:" + "c".repeat(64) },
    });
    expect(start!.parentSpanId).toBe(agentSpanId(WS, "claude-s1", "a-1"));
    expect(b.markers).toBe(3);
    const [root, agent] = b.pendingEnvelopes();
    expect([root!.startMs, root!.endMs]).toEqual([T0, T0 + 3000]);
    // The subagent runs from its SubagentStart to its SubagentStop; an empty agent_type keeps the name it had.
    expect(agent).toMatchObject({ name: "invoke_agent Explore", startMs: T0 + 1000, endMs: T0 + 3000 });
  });
});

describe("gate step spans", () => {
  const evidence: GateEvidenceView = {
    mode: "full", evidence_path: ".aop/features/f/evidence/gate-full-1.json", trust: "chained",
    evidence: {
      feature_id: "f", mode: "full", profile: "default", overall: "fail", started_at: "2026-05-01T09:59:59.800Z", finished_at: "2026-05-01T10:00:00.000Z",
      step_results: [
        { name: "lint", cmd: ["npm", "run", "lint"], exit_code: 0, timed_out: false, attempts: 1, skipped: false, skip_reason: null, started_at: "2026-05-01T09:59:59.800Z", finished_at: "2026-05-01T09:59:59.900Z", log_path: "l", log_sha256: "sha256:" + "b".repeat(64) },
        { name: "slow", cmd: ["sleep", "9"], exit_code: null, timed_out: true, attempts: 2, skipped: false, skip_reason: null, started_at: "2026-05-01T09:59:59.800Z", finished_at: "2026-05-01T09:59:59.990Z", log_path: "s", log_sha256: null },
        { name: "tests", cmd: ["npm", "test"], exit_code: null, timed_out: false, attempts: 0, skipped: true, skip_reason: "dependency 'slow' failed", started_at: null, finished_at: null, log_path: null, log_sha256: null },
      ],
    },
  };
  const gate = (extra: Partial<TimelineEntry> = {}) => entry(0, { tool_name: "gates.run", mutating: true, operation_id: "op-gate-1", idempotency_status: "new", feature_id: "f", ...extra });
  const failed = { result: "error", error_code: "gate_failed" } as const;
  /** The evidence as a file edited after the gate ran: it now says pass, and its failing steps passed. */
  const edited = (trust: GateEvidenceView["trust"]): GateEvidenceView => ({
    ...evidence, trust, evidence: { ...evidence.evidence!, overall: "pass", step_results: evidence.evidence!.step_results.map((st) => ({ ...st, exit_code: 0, timed_out: false, skipped: false })) },
  });

  it("a gate run gets one child span per step from its evidence", () => {
    let asked: [number, number] | null = null;
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), (_e, from, to) => ((asked = [from, to]), evidence));
    const [call, lint, slow, tests] = b.add(gate());
    expect(asked).toEqual([T0 - 250, T0]);
    // A chained file is what the gate produced: its verdict stands even beside an `ok` written before gate_failed existed.
    expect(call!.attributes).toMatchObject({ "aop.gate.mode": "full", "aop.gate.profile": "default", "aop.gate.overall": "fail", "aop.gate.evidence_path": evidence.evidence_path, "aop.evidence.status": "chained" });
    expect([lint, slow, tests].map((s) => [s!.spanId, s!.parentSpanId, s!.name])).toEqual([0, 1, 2].map((i) => [stepSpanId(WS, "run:k", 0, i), call!.spanId, `gate_step ${["lint", "slow", "tests"][i]}`]));
    expect(lint).toMatchObject({ error: null, startMs: Date.parse("2026-05-01T09:59:59.800Z"), endMs: Date.parse("2026-05-01T09:59:59.900Z"), attributes: { "process.exit.code": 0, "process.command_args": ["npm", "run", "lint"], "aop.gate.step.log_sha256": "sha256:" + "b".repeat(64) } });
    expect(slow).toMatchObject({ error: "timed out", attributes: { "error.type": "timeout", "aop.gate.step.timed_out": true, "aop.gate.step.attempts": 2 } });
    expect(slow!.attributes).not.toHaveProperty("process.exit.code");
    expect(tests).toMatchObject({ error: null, startMs: Date.parse(evidence.evidence!.started_at), endMs: Date.parse(evidence.evidence!.started_at), attributes: { "aop.gate.step.skipped": true, "aop.gate.step.skip_reason": "dependency 'slow' failed" } });
    expect(b.steps).toBe(3);
  });

  it("a failed gate (gate_failed) is an ERROR call whose evidence is still looked up, with its steps", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), () => evidence);
    const [call, ...steps] = b.add(gate(failed));
    expect(call).toMatchObject({ error: "gate_failed", attributes: { "error.type": "gate_failed", "aop.gate.overall": "fail", "aop.evidence.status": "chained", "aop.gate.profile": "default" } });
    expect(steps.map((s) => s.name)).toEqual(["gate_step lint", "gate_step slow", "gate_step tests"]);
  });

  it("evidence modified after it was chained: the verdict is the timeline's, the file's steps and profile are not exported", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), () => edited("modified"));
    const spans = b.add(gate(failed));
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ error: "gate_failed", attributes: { "aop.gate.overall": "fail", "aop.evidence.status": "modified", "aop.gate.mode": "full", "aop.gate.evidence_path": evidence.evidence_path } });
    expect(spans[0]!.attributes).not.toHaveProperty("aop.gate.profile");
    expect([b.steps, b.evidenceModified]).toEqual([0, 1]);
    // A call that answered ok passed, whatever the modified file says now.
    const failing = { ...edited("modified"), evidence: evidence.evidence };
    const [ok] = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), () => failing).add(gate());
    expect(ok!.attributes).toMatchObject({ "aop.gate.overall": "pass", "aop.evidence.status": "modified" });
  });

  it("a modified file that no longer reads as evidence is still marked, with the timeline's verdict", () => {
    const [call] = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), () => ({ ...evidence, trust: "modified", evidence: null })).add(gate(failed));
    expect(call!.attributes).toMatchObject({ "aop.gate.overall": "fail", "aop.evidence.status": "modified", "aop.gate.evidence_path": evidence.evidence_path });
  });

  it("an unchained file is exported as found and marked not_chained; a recorded failure still wins over its verdict", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), () => edited("not_chained"));
    const [call, ...steps] = b.add(gate(failed));
    expect(call!.attributes).toMatchObject({ "aop.gate.overall": "fail", "aop.evidence.status": "not_chained", "aop.gate.profile": "default" });
    expect(steps).toHaveLength(3);
  });

  it("no evidence found: the call keeps the timeline's verdict and no evidence attributes", () => {
    const [failedCall] = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence).add(gate(failed));
    expect(failedCall!.attributes["aop.gate.overall"]).toBe("fail");
    expect(failedCall!.attributes).not.toHaveProperty("aop.evidence.status");
    const [passed] = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), noEvidence).add(gate());
    expect(passed!.attributes["aop.gate.overall"]).toBe("pass");
  });

  it("a run whose chain append failed ran its steps: looked up, without a verdict of the timeline's own", () => {
    const [call, ...steps] = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), () => ({ ...evidence, trust: "not_chained" })).add(gate({ result: "error", error_code: "evidence_chain_discontinuity" }));
    expect(call!.attributes).toMatchObject({ "error.type": "evidence_chain_discontinuity", "aop.gate.overall": "fail", "aop.evidence.status": "not_chained" });
    expect(steps).toHaveLength(3);
  });

  it("a replayed gate call ran nothing, nor did one refused before its steps: no steps, no lookup", () => {
    const b = new RunSpanBuilder(WS, "run:k", emptyEnvelopes(), () => {
      throw new Error("must not look up");
    });
    expect(b.add(gate({ idempotency_status: "replay" }))).toHaveLength(1);
    expect(b.add(gate({ idempotency_status: "replay", ...failed }))).toHaveLength(1);
    expect(b.add(gate({ result: "error", error_code: "gate_mode_not_found" }))).toHaveLength(1);
    expect(b.add(gate({ result: "error", error_code: "operation_cancelled" }))).toHaveLength(1);
  });
});
