// checkpoint done <skill> [--verify] [--status S]: pop next_actions[0] into recently_done; with --verify,
// run its done_when through your shell first (output shown on stderr) and pop only on exit 0.
import { completeNextAction } from "../../../domains/checkpoints/index.js";
import { CHECKPOINT_STATUSES, actionText, type CheckpointStatus } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../context.js";
import { usageError } from "../run-command.js";
import { problemLine } from "../output/checkpoint-format.js";
import { formatDuration } from "../../../core/time-format.js";

function parseStatus(value: unknown): CheckpointStatus | undefined {
  if (value === undefined) return undefined;
  if (!(CHECKPOINT_STATUSES as readonly unknown[]).includes(value)) throw usageError(`--status must be ${CHECKPOINT_STATUSES.join(", ")} (got '${String(value)}')`);
  return value as CheckpointStatus;
}

async function timeoutMs(ctx: CliContext, value: unknown): Promise<number> {
  if (value !== undefined) {
    const seconds = Number(value);
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 86_400) throw usageError(`--timeout must be a whole number of seconds from 1 to 86400 (got '${String(value)}')`);
    return seconds * 1000;
  }
  const { loadPolicyTolerant } = await import("../../../config/policy-loader.js");
  return (await loadPolicyTolerant(ctx.layout)).policy.execution.default_step_timeout_seconds * 1000;
}

export async function run(ctx: CliContext, opts: Record<string, unknown>, skill: unknown): Promise<number> {
  const status = parseStatus(opts.status);
  const verify = opts.verify === true ? { timeoutMs: await timeoutMs(ctx, opts.timeout), env: process.env, onOutput: (chunk: Buffer) => process.stderr.write(chunk) } : undefined;
  if (verify) ctx.err(ctx.errStyle.dim(`running done_when of ${String(skill)}'s next action…`));
  const result = await completeNextAction(ctx, String(skill), { ...(verify ? { verify } : {}), ...(status ? { status } : {}) });
  if (ctx.json) {
    ctx.printJson({ skill: result.skill, done: result.done, next_action: result.next_action, remaining: result.remaining, status: result.checkpoint.status, warnings: result.warnings, verify: result.verify });
    return 0;
  }
  const s = ctx.style;
  if (result.verify) ctx.out(`${s.green("verified")} \`${result.verify.command}\` exited 0 in ${formatDuration(result.verify.duration_ms)}`);
  ctx.out(`${s.green("done")} ${actionText(result.done.action)}`);
  ctx.out(result.next_action === null ? `queue empty (status ${result.checkpoint.status})` : `next (${result.remaining} left): ${actionText(result.next_action)}`);
  for (const w of result.warnings) ctx.out(problemLine("warning", w, s));
  return 0;
}
