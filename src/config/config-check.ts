// Validates policy and gates together and says what is wrong where. Each file's load comes from its
// snapshot when the snapshot was made of the very text there (config-snapshot.ts): the same result.
import type { WorkspaceLayout } from "../store/layout.js";
import { loadGatesSnapshot } from "./gates-snapshot.js";
import { loadPolicySnapshot } from "./policy-snapshot.js";
import type { ConfigProblem, Policy } from "./policy-types.js";

export interface ConfigCheckReport {
  ok: boolean;
  policy: { file_exists: boolean; valid: boolean; aop_file_exists: boolean };
  gates: { file_exists: boolean; valid: boolean; profiles: string[] };
  problems: ConfigProblem[];
}

export type ExtraPolicyCheck = (policy: Policy) => ConfigProblem[];

export async function checkConfig(layout: WorkspaceLayout, extraChecks: ExtraPolicyCheck[] = []): Promise<ConfigCheckReport> {
  const policy = await loadPolicySnapshot(layout);
  const policyProblems = [...policy.problems];
  if (policyProblems.length === 0) for (const check of extraChecks) policyProblems.push(...check(policy.policy));
  const gates = await loadGatesSnapshot(layout);
  const problems = [...policyProblems, ...gates.problems];
  return {
    ok: problems.length === 0,
    policy: { file_exists: policy.userFileExists, valid: policyProblems.length === 0, aop_file_exists: policy.aopFileExists },
    gates: { file_exists: gates.exists, valid: gates.problems.length === 0, profiles: gates.gates ? Object.keys(gates.gates.profiles) : [] },
    problems,
  };
}
