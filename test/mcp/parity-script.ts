// The scripted call sequence the parity suite runs through both transports. It must cover every
// catalog tool (the suite checks), with successes and failures.

export interface ParityStep {
  tool: string;
  args: Record<string, unknown>;
}

export const PARITY_SCRIPT: ParityStep[] = [
  { tool: "feature.list", args: {} },
  { tool: "feature.init", args: { feature_id: "feat_a", title: "Alpha", operation_id: "op-parity-0001" } },
  { tool: "feature.init", args: { feature_id: "feat_a", title: "Alpha", operation_id: "op-parity-0001" } },
  { tool: "feature.init", args: { feature_id: "feat_a", title: "Other", operation_id: "op-parity-0001" } },
  { tool: "feature.init", args: { feature_id: "feat_b", operation_id: "op-parity-0002" } },
  { tool: "feature.init", args: { feature_id: "../../etc", operation_id: "op-parity-0003" } },
  { tool: "feature.init", args: { feature_id: "feat_c" } },
  { tool: "feature.get", args: { feature_id: "feat_a" } },
  { tool: "feature.get", args: { feature_id: "ghost" } },
  { tool: "feature.get", args: { feature_id: 42 } },
  { tool: "feature.set_status", args: { feature_id: "feat_b", status: "blocked", expected_version: 1, operation_id: "op-parity-0004" } },
  { tool: "feature.set_status", args: { feature_id: "feat_b", status: "merged", expected_version: 1, operation_id: "op-parity-0005" } },
  { tool: "feature.list", args: { status: "blocked" } },
  { tool: "run.status", args: {} },
  { tool: "run.start", args: { run_id: "run:parity", owner: "parity", operation_id: "op-parity-0006" } },
  { tool: "run.start", args: { owner: "intruder", operation_id: "op-parity-0007" } },
  { tool: "run.heartbeat", args: { run_id: "run:parity", operation_id: "op-parity-0008" } },
  { tool: "session.assign", args: { feature_id: "feat_a", role: "builder", session_id: "sess-1", operation_id: "op-parity-0009" } },
  { tool: "session.assign", args: { feature_id: "feat_b", role: "builder", session_id: "sess-1", operation_id: "op-parity-0010" } },
  { tool: "run.status", args: {} },
  { tool: "run.stop", args: { run_id: "run:parity", operation_id: "op-parity-0011" } },
  { tool: "run.heartbeat", args: { run_id: "run:parity", operation_id: "op-parity-0012" } },
  { tool: "replay.timeline_get", args: { run_id: "run:parity", limit: 5 } },
  { tool: "replay.timeline_get", args: { run_id: "run:parity", tool_name: "feature.init", from_sequence: 0 } },
  { tool: "replay.timeline_get", args: { run_id: "no-such-run" } },
  { tool: "replay.timeline_get", args: { run_id: "../etc" } },
  { tool: "doctor.run", args: { operation_id: "op-parity-0013" } },
  { tool: "doctor.run", args: { only: "drift", operation_id: "op-parity-0014" } },
  { tool: "checkpoint.list", args: {} },
  { tool: "checkpoint.update", args: { skill: "architect", as_skill: "architect", operation_id: "op-parity-0015", patch: { project: "parity", project_dir: "/srv/parity", phase: "design", step: "api", status: "in_progress", progress_summary: "designing the API", next_actions: ["write the schema", "review it"], progress_table: [{ id: "api", label: "API", status: "in_progress" }], context_primer: { key_decisions: ["REST"], generated_files: [], user_preferences: [] }, skill_state: { secret: 1 } } } },
  { tool: "checkpoint.update", args: { skill: "architect", operation_id: "op-parity-0016", patch: { status: "sideways" } } },
  { tool: "checkpoint.get", args: { skill: "architect" } },
  { tool: "checkpoint.get", args: { skill: "architect", as_skill: "architect" } },
  { tool: "checkpoint.get", args: { skill: "../etc" } },
  { tool: "checkpoint.validate", args: { strict: true } },
  { tool: "checkpoint.next", args: {} },
  { tool: "checkpoint.done", args: { skill: "architect", operation_id: "op-parity-0017" } },
  { tool: "checkpoint.done", args: { skill: "ghost", operation_id: "op-parity-0018" } },
  { tool: "no.such_tool", args: {} },
];
