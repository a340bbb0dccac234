// Validates policy and gates together and says what is wrong where.
import type { WorkspaceLayout } from "../store/layout.js";
import { loadGatesTolerant } from "./gates-loader.js";
import { loadPolicyTolerant } from "./policy-loader.js";
import type { ConfigProblem, Policy } from "./policy-types.js";

export interface ConfigCheckReport {
  ok: boolean;
  policy: { file_exists: boolean; valid: boolean; aop_file_exists: boolean };
  gates: { file_exists: boolean; valid: boolean; profiles: string[] };
  problems: ConfigProblem[];
}

export type ExtraPolicyCheck = (policy: Policy) => ConfigProblem[];

export async function checkConfig(layout: WorkspaceLayout, extraChecks: ExtraPolicyCheck[] = []): Promise<ConfigCheckReport> {
  const policy = await loadPolicyTolerant(layout);
  const policyProblems = [...policy.problems];
  if (policyProblems.length === 0) for (const check of extraChecks) policyProblems.push(...check(policy.policy));
  const gates = await loadGatesTolerant(layout);
  const problems = [...policyProblems, ...gates.problems];
  return {
    ok: problems.length === 0,
    policy: { file_exists: policy.userFileExists, valid: policyProblems.length === 0, aop_file_exists: policy.aopFileExists },
    gates: { file_exists: gates.exists, valid: gates.problems.length === 0, profiles: gates.gates ? Object.keys(gates.gates.profiles) : [] },
    problems,
  };
}
