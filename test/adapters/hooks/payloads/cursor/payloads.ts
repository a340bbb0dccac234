// Cursor hook payloads, written from Cursor's documented schema (https://cursor.com/docs/agent/hooks:
// "Hook input" common fields conversation_id, generation_id, model, hook_event_name, cursor_version,
// workspace_roots, user_email, transcript_path; then each event's own fields). Cursor's CLI is not on
// the npm registry, so no session of the real client can be captured here.
const common = {
  conversation_id: "668320d2-2fd8-4888-b33c-2a466fec86e7",
  generation_id: "490b90b7-a2ce-4c2c-bb76-cb77b125df2f",
  model: "claude-sonnet-4-20250514",
  cursor_version: "2.4.21",
  workspace_roots: ["/home/user/project"],
  user_email: null,
  transcript_path: "/home/user/.cursor/projects/home-user-project/agent-transcripts/668320d2.jsonl",
};

export const CURSOR_PAYLOADS: Record<string, Record<string, unknown>> = {
  sessionStart: { ...common, hook_event_name: "sessionStart", session_id: common.conversation_id, is_background_agent: false, composer_mode: "agent" },
  beforeSubmitPrompt: { ...common, hook_event_name: "beforeSubmitPrompt", prompt: "fix the refund handler", attachments: [] },
  preToolUse: { ...common, hook_event_name: "preToolUse", tool_name: "Shell", tool_input: { command: "npm test", working_directory: "/home/user/project" }, tool_use_id: "abc123", cwd: "/home/user/project", agent_message: "Running the tests" },
  postToolUse: { ...common, hook_event_name: "postToolUse", tool_name: "Shell", tool_input: { command: "npm test" }, tool_output: '{"exitCode":0,"stdout":"All tests passed"}', tool_use_id: "abc123", cwd: "/home/user/project", duration: 5432 },
  "postToolUse-mcp": { ...common, hook_event_name: "postToolUse", tool_name: "MCP:feature_init", tool_input: { feature_id: "feat_cu", title: "From Cursor", operation_id: "op-cursor-0001" }, tool_output: "{}", tool_use_id: "def456", cwd: "/home/user/project", duration: 120 },
  postToolUseFailure: { ...common, hook_event_name: "postToolUseFailure", tool_name: "Shell", tool_input: { command: "npm test" }, tool_use_id: "ghi789", cwd: "/home/user/project", error_message: "Command timed out after 30s", failure_type: "timeout", duration: 30000, is_interrupt: false },
  "postToolUseFailure-denied": { ...common, hook_event_name: "postToolUseFailure", tool_name: "Shell", tool_input: { command: "rm -rf build" }, tool_use_id: "jkl012", cwd: "/home/user/project", error_message: "Permission denied by the user", failure_type: "permission_denied", duration: 0, is_interrupt: false },
  subagentStart: { ...common, hook_event_name: "subagentStart", subagent_id: "sub-1", subagent_type: "explore", task: "find the refund handler" },
  subagentStop: { ...common, hook_event_name: "subagentStop", subagent_id: "sub-1", subagent_type: "explore", status: "completed" },
  preCompact: { ...common, hook_event_name: "preCompact", trigger: "auto", context_usage_percent: 85, context_tokens: 120000, context_window_size: 200000, message_count: 45, messages_to_compact: 30, is_first_compaction: true },
  stop: { ...common, hook_event_name: "stop", status: "completed", loop_count: 0 },
  "stop-followup": { ...common, hook_event_name: "stop", status: "completed", loop_count: 1 },
  sessionEnd: { ...common, hook_event_name: "sessionEnd", session_id: common.conversation_id, reason: "completed", duration_ms: 45000, is_background_agent: false, final_status: "completed" },
  afterShellExecution: { ...common, hook_event_name: "afterShellExecution", command: "npm test", output: "ok", duration: 5432 },
};
