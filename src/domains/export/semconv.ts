// Every OpenTelemetry attribute name and value the export writes, in one place: the GenAI and MCP
// conventions are at Development stability and will move (docs/otel.md, "Attributes"). Pure.

/** OpenTelemetry semantic conventions used here (GenAI and MCP: Development; the rest: Stable). */
export const OTEL = {
  serviceName: "service.name",
  serviceVersion: "service.version",
  errorType: "error.type",
  networkTransport: "network.transport",
  processCommandArgs: "process.command_args",
  processExitCode: "process.exit.code",
  genAiOperationName: "gen_ai.operation.name",
  genAiProviderName: "gen_ai.provider.name",
  genAiConversationId: "gen_ai.conversation.id",
  /** The attribute Claude Code puts on all its telemetry: the same session id, for joins. */
  sessionId: "session.id",
  genAiAgentId: "gen_ai.agent.id",
  genAiAgentName: "gen_ai.agent.name",
  genAiToolName: "gen_ai.tool.name",
  genAiToolCallId: "gen_ai.tool.call.id",
  genAiToolType: "gen_ai.tool.type",
  mcpMethodName: "mcp.method.name",
} as const;

/** aop's own fields, under `aop.*`. */
export const AOP = {
  runId: "aop.run_id",
  sequence: "aop.sequence",
  featureId: "aop.feature_id",
  actorType: "aop.actor_type",
  mutating: "aop.mutating",
  idempotencyStatus: "aop.idempotency_status",
  requestHash: "aop.request_hash",
  marker: "aop.marker",
  gateMode: "aop.gate.mode",
  gateProfile: "aop.gate.profile",
  gateOverall: "aop.gate.overall",
  gateEvidencePath: "aop.gate.evidence_path",
  /** Whether the evidence file still holds what its chain entry recorded: chained | modified | not_chained. */
  evidenceStatus: "aop.evidence.status",
  stepName: "aop.gate.step.name",
  stepAttempts: "aop.gate.step.attempts",
  stepTimedOut: "aop.gate.step.timed_out",
  stepSkipped: "aop.gate.step.skipped",
  stepSkipReason: "aop.gate.step.skip_reason",
  stepLogSha256: "aop.gate.step.log_sha256",
} as const;

export const OPERATION = {
  invokeAgent: "invoke_agent",
  invokeWorkflow: "invoke_workflow",
  executeTool: "execute_tool",
} as const;

export const TOOL_TYPE = { function: "function", extension: "extension" } as const;

/** `mcp.method.name` of a tool call, and `network.transport` of the connection `aop mcp` serves (stdio, or HTTP with --http). */
export const MCP_TOOLS_CALL = "tools/call";
export const STDIO_TRANSPORT = "pipe";
export const HTTP_TRANSPORT = "tcp";

/** The agent of a Claude Code session (its runs are named `claude-<session_id>`). */
export const CLAUDE_CODE = { runPrefix: "claude-", agentName: "claude-code", provider: "anthropic" } as const;

/** Claude Code names MCP tools `mcp__<server>__<tool>`: tools from an extension, not built in. */
export function isMcpToolName(toolName: string): boolean {
  return toolName.startsWith("mcp__");
}

/** `aop.gate.overall`: the gate's verdict. */
export const GATE_VERDICT = { pass: "pass", fail: "fail" } as const;

/** `error.type` of a gate step that failed. */
export const STEP_ERROR = { timeout: "timeout", exitCode: "nonzero_exit" } as const;

export const SPAN_NAME = {
  tool: (toolName: string) => `${OPERATION.executeTool} ${toolName}`,
  agent: (agentName: string | null) => (agentName ? `${OPERATION.invokeAgent} ${agentName}` : OPERATION.invokeAgent),
  workflow: OPERATION.invokeWorkflow,
  step: (stepName: string) => `gate_step ${stepName}`,
} as const;
