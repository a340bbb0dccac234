// The staleness thresholds for status, doctor and resume: policy `checkpoints.stale_days`.
// A broken policy.yaml must not stop a session from resuming: its problems are a warning here.
import { loadPolicyTolerant } from "../../../config/policy-loader.js";
import type { StaleDays } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../program/context.js";

export async function staleDaysFor(ctx: CliContext): Promise<StaleDays> {
  const { policy, problems } = await loadPolicyTolerant(ctx.layout);
  if (problems.length > 0) ctx.err(policyWarning(problems.length));
  return policy.checkpoints.stale_days;
}

export function policyWarning(problems: number): string {
  return `warning: policy.yaml has ${problems} problem${problems === 1 ? "" : "s"}; using defaults where it is invalid (run \`aop config check\`)`;
}
