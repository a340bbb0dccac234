// The shape of the merged policy (schemas/config/policy.schema.json is the authority).

export const ROLES = ["orchestrator", "planner", "builder", "qa", "system"] as const;
export type Role = (typeof ROLES)[number];

export interface Policy {
  version: 1;
  rbac: Partial<Record<Role, string[]>>;
  locks: { lease_ttl_seconds: number };
  /** Upstream's section (DESIGN §21): the default gate profile lives here, where upstream reads it too. */
  gate_selection?: { default_profile?: string; auto_heal_invalid_state_profile?: boolean; legacy_mode_profile_compat?: boolean };
  execution: { env_allowlist: string[]; default_step_timeout_seconds: number };
  innovation: { replay_debugger: boolean; tamper_evident_evidence: boolean };
  observability: {
    replay: {
      enabled: boolean;
      write_mode: "best_effort" | "required";
      retention: { max_runs: number; max_entries_per_run: number };
    };
    evidence_integrity: { enabled: boolean; verify_on_read: boolean; algorithm_version: 1; attest: boolean; anchor_after_gate: boolean; anchor_git: boolean };
    export: {
      otlp: { enabled: boolean; endpoint: string | null; protocol: "http/json" | "http/protobuf"; headers_env: string | null };
    };
  };
  diagnostics: { doctor: { enabled: boolean; strict_fails_on: "critical" | "warning" } };
  idempotency: { retention: { max_age_days: number; max_records: number } };
  checkpoints: { stale_days: { in_progress: number; blocked: number; complete: number } };
  hooks: { claude: { stop_reminder: StopReminder } };
}

export type StopReminder = "message" | "block" | "off";

/** A configuration problem: which file, where in it, what is wrong. */
export interface ConfigProblem {
  file: string;
  path: string;
  message: string;
  hint?: string;
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function replayWritesEnabled(policy: Policy): boolean {
  return policy.innovation.replay_debugger && policy.observability.replay.enabled;
}

export function evidenceIntegrityEnabled(policy: Policy): boolean {
  return policy.innovation.tamper_evident_evidence && policy.observability.evidence_integrity.enabled;
}

/** What loading the policy gives: the merged policy and the problems found on the way. */
export interface PolicyLoadResult {
  policy: Policy;
  problems: ConfigProblem[];
  /** policy.yaml exists. */
  userFileExists: boolean;
  /** aop.yaml exists. */
  aopFileExists: boolean;
  /** The aop-only keys policy.yaml itself sets, which the upstream orchestrator's schema refuses (DRIFT_014). */
  aopOnlyKeysInUserFile: string[];
}
