// The staleness thresholds for status, doctor and resume: policy `checkpoints.stale_days`.
// A broken policy.yaml must not stop a session from resuming: its problems are a warning here.
import { loadPolicyTolerant } from "../../../config/policy-loader.js";
import type { StaleDays } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../context.js";

export async function staleDaysFor(ctx: CliContext): Promise<StaleDays> {
  const { policy, problems } = await loadPolicyTolerant(ctx.layout);
  if (problems.length > 0) ctx.err(`warning: policy.yaml has ${problems.length} problem${problems.length === 1 ? "" : "s"}; using defaults where it is invalid (run \`aop config check\`)`);
  return policy.checkpoints.stale_days;
}
