// The shape of agentic/orchestrator/gates.yaml (schemas/config/gates.schema.json is the authority).

export interface GateStep {
  name: string;
  cmd: string[];
  cwd?: string;
  env?: Record<string, string>;
  timeout_seconds?: number;
  parallel_group?: string;
  depends_on?: string[];
}

export interface GatesConfig {
  version: 1;
  default_profile?: string;
  profiles: Record<string, { description?: string; modes: Record<string, GateStep[]> }>;
}
