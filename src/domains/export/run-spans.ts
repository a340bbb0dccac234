// A run as one trace: the root span (invoke_agent for an agent's session, invoke_workflow for a
// kernel run), one span per subagent, and the entries' spans under them. Pure: what was already sent
// comes in as `EnvelopeState` and goes out updated (docs/otel.md, "Incremental export").
import type { TimelineEntry } from "../replay/index.js";
import { entryTimes, markerSpan, toolSpan } from "./entry-spans.js";
import { gateSpans, ranGate, type GateEvidenceView } from "./gate-spans.js";
import { AOP, CLAUDE_CODE, OPERATION, OTEL, SPAN_NAME } from "./semconv.js";
import { agentSpanId, rootSpanId, traceIdFor } from "./span-ids.js";
import { widen, type AttributeValue, type RunIds, type SpanRecord, type SpanWindow } from "./span-record.js";
import { isMarkerEntry, sessionOf } from "../../catalog/timeline-entry.js";

export interface RootState extends SpanWindow {
  kind: "agent" | "workflow";
  session_id: string | null;
  sent: boolean;
}

export interface AgentState extends SpanWindow {
  type: string | null;
  sent: boolean;
}

/** The spans that enclose entries: each is sent once, when the export first reaches its entries. */
export interface EnvelopeState {
  root: RootState | null;
  agents: Record<string, AgentState>;
}

export const emptyEnvelopes = (): EnvelopeState => ({ root: null, agents: {} });

/** Looks up the evidence of a gate run, judged against its chain (null when no file can be found). */
export type GateEvidenceLookup = (entry: TimelineEntry, startMs: number, endMs: number) => GateEvidenceView | null;

export class RunSpanBuilder {
  readonly traceId: string;
  readonly rootSpanId: string;
  private readonly envelopes: EnvelopeState;
  /** Entries left out because their `ts` is not a time (they cannot be placed on a timeline). */
  unplaced = 0;
  steps = 0;
  /** Gate runs whose evidence file changed after it was chained (exported with the timeline's verdict, no steps). */
  evidenceModified = 0;
  /** Claude Code session markers (SessionStart, UserPromptSubmit, SubagentStart, …) among the entries. */
  markers = 0;

  private readonly ids: RunIds;

  constructor(
    /** The workspace's id (store/workspace-identity.ts): every id of the run includes it. */
    readonly workspaceId: string,
    readonly runId: string,
    state: EnvelopeState,
    private readonly gateEvidence: GateEvidenceLookup,
  ) {
    this.traceId = traceIdFor(workspaceId, runId);
    this.rootSpanId = rootSpanId(workspaceId, runId);
    this.ids = { workspaceId, traceId: this.traceId };
    this.envelopes = structuredClone(state);
  }

  /** The entry's span (and its gate steps), widening the enclosing spans to cover it. */
  add(entry: TimelineEntry): SpanRecord[] {
    const times = entryTimes(entry);
    if (!times) {
      this.unplaced += 1;
      return [];
    }
    this.coverRoot(entry, times.startMs, times.endMs);
    let parent = this.rootSpanId;
    if (entry.agent_id !== undefined) {
      const agent = this.envelopes.agents[entry.agent_id];
      // An agent span already sent keeps the window it was sent with; its later calls still nest under it.
      // A compaction's SubagentStop comes with an empty agent_type: no name rather than an empty one.
      const type = entry.agent_type ? entry.agent_type : null;
      if (!agent) this.envelopes.agents[entry.agent_id] = { start_ms: times.startMs, end_ms: times.endMs, type, sent: false };
      else if (!agent.sent) {
        widen(agent, times.startMs, times.endMs);
        agent.type ??= type;
      }
      parent = agentSpanId(this.workspaceId, this.runId, entry.agent_id);
    }
    if (isMarkerEntry(entry)) {
      this.markers += 1;
      return [markerSpan(entry, this.ids, parent, times.endMs)];
    }
    const span = toolSpan(entry, this.ids, parent, times);
    if (!ranGate(entry)) return [span];
    const evidence = this.gateEvidence(entry, times.startMs, times.endMs);
    if (evidence?.trust === "modified") this.evidenceModified += 1;
    const steps = gateSpans(span, entry, evidence, this.ids);
    this.steps += steps.length;
    return [span, ...steps];
  }

  private coverRoot(entry: TimelineEntry, startMs: number, endMs: number): void {
    const root = this.envelopes.root;
    if (root === null) {
      // Claude Code's hook records its calls with actor_type "agent"; kernel calls carry a role.
      const kind = entry.actor_type === "agent" ? "agent" : "workflow";
      this.envelopes.root = { start_ms: startMs, end_ms: endMs, kind, session_id: sessionOf(entry), sent: false };
    } else if (!root.sent) widen(root, startMs, endMs);
  }

  /** The enclosing spans not sent yet (root first), as they stand now. */
  pendingEnvelopes(): SpanRecord[] {
    const out: SpanRecord[] = [];
    const root = this.envelopes.root;
    if (root && !root.sent) out.push(this.rootSpan(root));
    for (const [agentId, agent] of Object.entries(this.envelopes.agents)) {
      if (!agent.sent) out.push(this.agentSpan(agentId, agent, root?.session_id ?? null));
    }
    return out;
  }

  /** The state now, with nothing more sent (after a batch that did not carry the envelopes). */
  currentState(): EnvelopeState {
    return structuredClone(this.envelopes);
  }

  /** The state after the pending envelopes were delivered. */
  stateAfterSending(): EnvelopeState {
    const next = structuredClone(this.envelopes);
    if (next.root) next.root.sent = true;
    for (const agent of Object.values(next.agents)) agent.sent = true;
    return next;
  }

  private rootSpan(root: RootState): SpanRecord {
    const attributes: Record<string, AttributeValue> = { [AOP.runId]: this.runId };
    let name: string = SPAN_NAME.workflow;
    if (root.kind === "agent") {
      attributes[OTEL.genAiOperationName] = OPERATION.invokeAgent;
      const claude = this.runId.startsWith(CLAUDE_CODE.runPrefix);
      if (claude) {
        attributes[OTEL.genAiAgentName] = CLAUDE_CODE.agentName;
        attributes[OTEL.genAiProviderName] = CLAUDE_CODE.provider;
      }
      name = SPAN_NAME.agent(claude ? CLAUDE_CODE.agentName : null);
    } else attributes[OTEL.genAiOperationName] = OPERATION.invokeWorkflow;
    if (root.session_id !== null) {
      attributes[OTEL.genAiConversationId] = root.session_id;
      attributes[OTEL.sessionId] = root.session_id;
    }
    return { traceId: this.traceId, spanId: this.rootSpanId, parentSpanId: null, name, startMs: root.start_ms, endMs: root.end_ms, attributes, error: null };
  }

  private agentSpan(agentId: string, agent: AgentState, sessionId: string | null): SpanRecord {
    const attributes: Record<string, AttributeValue> = { [OTEL.genAiOperationName]: OPERATION.invokeAgent, [OTEL.genAiAgentId]: agentId };
    if (agent.type !== null) attributes[OTEL.genAiAgentName] = agent.type;
    if (this.runId.startsWith(CLAUDE_CODE.runPrefix)) attributes[OTEL.genAiProviderName] = CLAUDE_CODE.provider;
    if (sessionId !== null) {
      attributes[OTEL.genAiConversationId] = sessionId;
      attributes[OTEL.sessionId] = sessionId;
    }
    return {
      traceId: this.traceId,
      spanId: agentSpanId(this.workspaceId, this.runId, agentId),
      parentSpanId: this.rootSpanId,
      name: SPAN_NAME.agent(agent.type),
      startMs: agent.start_ms,
      endMs: agent.end_ms,
      attributes,
      error: null,
    };
  }
}
